package office

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kisen/adjudication"
	"kisen/store"
)

// EventSettings are an organiser's (or one event's) adjudication choices:
// adjudication.Settings (jishogi, declaration, 投了優先, redo policy, time
// control) plus whether a result needs a second person's confirmation.
type EventSettings struct {
	adjudication.Settings
	RequireConfirmation bool `json:"require_confirmation"`
	// AppealDays is how many days after a ruling an appeal (異議) may be
	// filed (000 第10条第8項 says only 後日, "on a later day"; the period is
	// the organiser's, docs/appeals.md). Default DefaultAppealDays.
	AppealDays int `json:"appeal_days"`
}

// DefaultAppealDays is the appeal period when the organiser sets none: a
// week, Kisen's choice (the seeds name no period; docs/appeals.md).
const DefaultAppealDays = 7

// DefaultEventSettings are the federation's rules (adjudication's
// defaults) with self-confirming results.
func DefaultEventSettings() EventSettings {
	return EventSettings{Settings: adjudication.DefaultSettings(), AppealDays: DefaultAppealDays}
}

// ParseEventSettings reads settings JSON as organisers and events store it:
// fields left out keep the federation default ("{}" is the defaults), keys
// of other areas are ignored, and the result is validated.
func ParseEventSettings(raw string) (EventSettings, error) {
	s := DefaultEventSettings()
	if strings.TrimSpace(raw) == "" {
		return s, nil
	}
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return s, fmt.Errorf("settings JSON: %v: %w", err, ErrInvalid)
	}
	if err := s.Validate(); err != nil {
		return s, fmt.Errorf("settings: %w", err)
	}
	if s.AppealDays < 1 || s.AppealDays > MaxAppealDays {
		return s, fmt.Errorf("settings: appeal_days %d is not 1…%d: %w", s.AppealDays, MaxAppealDays, ErrInvalid)
	}
	return s, nil
}

// MaxAppealDays bounds the appeal period an organiser may set.
const MaxAppealDays = 365

// completeSettings reads raw over the federation defaults, validates it,
// and returns it with every adjudication setting written out (keys of other
// areas kept). An event stores this at creation, so a later change of the
// defaults or of its organiser never changes a past event.
func completeSettings(raw string) (string, error) {
	s, err := ParseEventSettings(raw)
	if err != nil {
		return "", err
	}
	return mergeSettings(raw, s)
}

// mergeSettings writes s over raw, keeping keys other areas stored in the
// same JSON object (e.g. league or pairing choices).
func mergeSettings(raw string, s EventSettings) (string, error) {
	all := map[string]json.RawMessage{}
	if strings.TrimSpace(raw) != "" {
		if err := json.Unmarshal([]byte(raw), &all); err != nil {
			all = map[string]json.RawMessage{}
		}
	}
	mine, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(mine, &fields); err != nil {
		return "", err
	}
	for k, v := range fields {
		all[k] = v
	}
	out, err := json.Marshal(all)
	return string(out), err
}

// SettingsForm is the settings form as typed: every field a string, the
// checkboxes "on" or "". Settings turns it into EventSettings.
type SettingsForm struct {
	Kind                string
	Jishogi             string
	JishogiTie27        string
	Declaration         string
	ResignationPriority bool
	ClockHand           string
	RedoAfter           string `field:"redo_after" validate:"intrange=0~100" msg:"adjudication.err"` // a whole number, 0 = no limit
	RedoThen            string
	RedoCountsAsGame    bool
	AllowanceMinutes    string `field:"allowance" validate:"intrange=0~2880" msg:"adjudication.err"`
	Timing              string
	Byoyomi             string
	RedoTopUp           bool
	ShortAllowanceRedo  string
	RequireConfirmation bool
	AppealDays          string `field:"appeal_days" validate:"omitempty,intrange=1~365" msg:"adjudication.err"` // days to appeal a ruling; empty: DefaultAppealDays
}

// FormOf fills the form from settings (to show them).
func FormOf(s EventSettings) SettingsForm {
	return SettingsForm{
		Kind: string(s.Kind), Jishogi: string(s.Jishogi), JishogiTie27: string(s.JishogiTie27),
		Declaration: string(s.Declaration), ResignationPriority: s.ResignationPriority,
		ClockHand: string(s.ClockHand), RedoAfter: strconv.Itoa(s.RepeatedRedo.After),
		RedoThen: string(s.RepeatedRedo.Then), RedoCountsAsGame: s.RedoCountsAsGame,
		AllowanceMinutes: strconv.FormatInt(int64(s.Time.Allowance.D()/time.Minute), 10),
		Timing:           string(s.Time.Timing), Byoyomi: string(s.Time.Byoyomi),
		RedoTopUp: s.Time.RedoTopUp, ShortAllowanceRedo: string(s.Time.ShortAllowanceRedo),
		RequireConfirmation: s.RequireConfirmation, AppealDays: strconv.Itoa(s.AppealDays),
	}
}

// settingsFormField maps adjudication's field paths to the form's names.
var settingsFormField = map[string]string{
	"kind": "kind", "jishogi": "jishogi", "jishogi_27_tie": "jishogi_27_tie",
	"declaration": "declaration", "clock_hand": "clock_hand",
	"repeated_redo.after": "redo_after", "repeated_redo.then": "redo_then",
	"time.allowance": "allowance", "time.timing": "timing", "time.byoyomi": "byoyomi",
	"time.short_allowance_redo": "short_allowance_redo",
}

// Settings checks the form: numbers first, then every rule of
// adjudication.Settings.Validate, reported on the form field with a
// message id of its own ("adjudication.err.settings.<field>").
func (f SettingsForm) Settings() (EventSettings, error) {
	v := &ValidationError{}
	s := EventSettings{Settings: adjudication.Settings{
		Kind: adjudication.EventKind(f.Kind), Jishogi: adjudication.JishogiRule(f.Jishogi),
		JishogiTie27: adjudication.JishogiTie(f.JishogiTie27), Declaration: adjudication.DeclarationRule(f.Declaration),
		ResignationPriority: f.ResignationPriority, ClockHand: adjudication.ClockHandRule(f.ClockHand),
		RepeatedRedo:     adjudication.RepeatedRedo{Then: adjudication.RedoPolicy(f.RedoThen)},
		RedoCountsAsGame: f.RedoCountsAsGame,
		Time: adjudication.TimeControl{Timing: adjudication.Timing(f.Timing), Byoyomi: adjudication.Byoyomi(f.Byoyomi),
			RedoTopUp: f.RedoTopUp, ShortAllowanceRedo: adjudication.ShortAllowanceRedo(f.ShortAllowanceRedo)},
	}, RequireConfirmation: f.RequireConfirmation}
	checkInput(v, 0, f)
	after, _ := strconv.Atoi(strings.TrimSpace(f.RedoAfter))
	s.RepeatedRedo.After = after
	s.AppealDays = DefaultAppealDays
	if d := strings.TrimSpace(f.AppealDays); d != "" {
		s.AppealDays, _ = strconv.Atoi(d)
	}
	mins, _ := strconv.Atoi(strings.TrimSpace(f.AllowanceMinutes))
	s.Time.Allowance = adjudication.Duration(time.Duration(mins) * time.Minute)
	if err := v.OrNil(); err != nil {
		return s, err
	}
	// domain rule, not a tag: the draw and adjudication settings'
	// combinations are the adjudication room's rules (Settings.Validate).
	if err := s.Validate(); err != nil {
		field := "kind"
		var fe *adjudication.FieldError
		if errors.As(err, &fe) {
			if f, ok := settingsFormField[fe.Field]; ok {
				field = f
			}
		}
		v.Add(0, field, "adjudication.err.settings."+field, nil)
		return s, v
	}
	return s, nil
}

// OrganiserSettings reads an organiser's settings (administrators).
func (o *Office) OrganiserSettings(ctx context.Context, actor Actor, organiserID int64) (EventSettings, error) {
	if err := actor.RequireAdmin(); err != nil {
		return EventSettings{}, err
	}
	org, err := o.store.OrganiserByID(ctx, organiserID)
	if err != nil {
		return EventSettings{}, err
	}
	return ParseEventSettings(org.Settings)
}

// SetOrganiserSettings saves an organiser's settings in full (every field,
// validated), so the events it creates later copy complete settings.
// Events already created keep their own copy.
func (o *Office) SetOrganiserSettings(ctx context.Context, actor Actor, organiserID int64, f SettingsForm) error {
	if err := actor.RequireAdmin(); err != nil {
		return err
	}
	s, err := f.Settings()
	if err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		org, err := tx.OrganiserByID(ctx, organiserID)
		if err != nil {
			return err
		}
		raw, err := mergeSettings(org.Settings, s)
		if err != nil {
			return err
		}
		return tx.SetOrganiserSettings(ctx, organiserID, raw, o.now())
	})
}

// SettingsState is an event's settings with whether they may be changed.
type SettingsState struct {
	Settings EventSettings
	// Started: a game of the event has started, so the settings are
	// locked unless an administrator unlocked them.
	Started bool
	// Locked: a change needs an administrator's unlock first.
	Locked  bool
	Unlocks []store.EventSettingsUnlock
	Changes []store.EventSettingsChange
}

// EventSettingsState reads an event's settings (anyone who may see the
// event; the settings decide its games, so they are public).
func (o *Office) EventSettingsState(ctx context.Context, actor Actor, eventID int64) (SettingsState, error) {
	e, err := o.Event(ctx, actor, eventID)
	if err != nil {
		return SettingsState{}, err
	}
	return settingsState(ctx, o.store, e)
}

func settingsState(ctx context.Context, s *store.Store, e store.Event) (SettingsState, error) {
	st := SettingsState{}
	var err error
	if st.Settings, err = ParseEventSettings(e.Settings); err != nil {
		return st, err
	}
	if st.Started, err = s.EventHasStartedGame(ctx, e.ID); err != nil {
		return st, err
	}
	if st.Started {
		_, unlocked, err := s.UnusedEventSettingsUnlock(ctx, e.ID)
		if err != nil {
			return st, err
		}
		st.Locked = !unlocked
	}
	if st.Unlocks, err = s.EventSettingsUnlocks(ctx, e.ID); err != nil {
		return st, err
	}
	st.Changes, err = s.EventSettingsChanges(ctx, e.ID)
	return st, err
}

// SetEventSettings changes an event's own settings (its directors and
// administrators). Until the event's first game starts they are free to
// change; after that each change needs an administrator's unlock, which
// it uses up. Every change is recorded with the settings before and after.
func (o *Office) SetEventSettings(ctx context.Context, actor Actor, eventID int64, f SettingsForm) error {
	if err := o.RequireEventRole(ctx, actor, eventID, RoleDirector); err != nil {
		return err
	}
	s, err := f.Settings()
	if err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		e, err := tx.EventByID(ctx, eventID)
		if err != nil {
			return err
		}
		ch := &store.EventSettingsChange{EventID: eventID, ChangedBy: actor.UserID, ChangedAt: o.now(), SettingsBefore: e.Settings}
		started, err := tx.EventHasStartedGame(ctx, eventID)
		if err != nil {
			return err
		}
		if started {
			u, ok, err := tx.UnusedEventSettingsUnlock(ctx, eventID)
			if err != nil {
				return err
			}
			if !ok {
				v := &ValidationError{}
				v.Add(0, "", "adjudication.err.settings_locked", nil)
				return v
			}
			ch.UnlockID = &u.ID
		}
		if ch.SettingsAfter, err = mergeSettings(e.Settings, s); err != nil {
			return err
		}
		return tx.SetEventSettings(ctx, ch)
	})
}

// maxReasonLen bounds free-text reasons (unlocks, rulings).
const maxReasonLen = MaxReasonLen

// UnlockEventSettings lets the next change of a started event's settings
// through (administrators only); who, when and why are recorded.
func (o *Office) UnlockEventSettings(ctx context.Context, actor Actor, eventID int64, reason string) error {
	if err := actor.RequireAdmin(); err != nil {
		return err
	}
	reason = strings.TrimSpace(reason)
	v := &ValidationError{}
	checkReason(v, "reason", unlockReasonInput{reason})
	if err := v.OrNil(); err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		e, err := tx.EventByID(ctx, eventID)
		if err != nil {
			return err
		}
		st, err := settingsState(ctx, tx, e)
		if err != nil {
			return err
		}
		if !st.Locked {
			v.Add(0, "reason", "adjudication.err.not_locked", nil)
			return v
		}
		return tx.AddEventSettingsUnlock(ctx, &store.EventSettingsUnlock{EventID: eventID, UnlockedBy: actor.UserID, UnlockedAt: o.now(), Reason: reason})
	})
}

// eventSettings loads the settings a game of the event is decided under.
func eventSettings(ctx context.Context, s *store.Store, eventID int64) (EventSettings, error) {
	e, err := s.EventByID(ctx, eventID)
	if err != nil {
		return EventSettings{}, err
	}
	return ParseEventSettings(e.Settings)
}
