package office

import (
	"context"
	"strings"

	"kisen/store"
)

// Organiser kinds (主催者の種類).
const (
	OrganiserFederation = "federation" // 連盟
	OrganiserNewspaper  = "newspaper"  // 新聞社
	OrganiserAmateur    = "amateur"    // アマチュア団体
	OrganiserOther      = "other"
)

// OrganiserKinds lists the kinds in display order.
var OrganiserKinds = []string{OrganiserFederation, OrganiserNewspaper, OrganiserAmateur, OrganiserOther}

const (
	maxNameLen = 200
	maxNoteLen = 4000
)

// OrganiserInput is the organiser form.
type OrganiserInput struct {
	Name   string `field:"name" validate:"storable,required,max=200" msg:"events.err"`
	NameEn string `field:"name_en" validate:"storable,max=200" msg:"events.err"`
	Kind   string `field:"kind" validate:"enum=organiser_kind" msg:"events.err"`
	Note   string `field:"note" validate:"storable,max=4000" msg:"events.err"`
}

func (in *OrganiserInput) check() error {
	in.Name, in.NameEn, in.Note = strings.TrimSpace(in.Name), strings.TrimSpace(in.NameEn), strings.TrimSpace(in.Note)
	v := &ValidationError{}
	checkInput(v, 0, in)
	return v.OrNil()
}

// Organisers lists organisers (administrators only).
func (o *Office) Organisers(ctx context.Context, actor Actor) ([]store.Organiser, error) {
	if err := actor.RequireAdmin(); err != nil {
		return nil, err
	}
	return o.store.Organisers(ctx)
}

// Organiser loads one organiser (administrators only).
func (o *Office) Organiser(ctx context.Context, actor Actor, id int64) (store.Organiser, error) {
	if err := actor.RequireAdmin(); err != nil {
		return store.Organiser{}, err
	}
	return o.store.OrganiserByID(ctx, id)
}

// CreateOrganiser adds an organiser with the federation's default
// settings written out in full.
func (o *Office) CreateOrganiser(ctx context.Context, actor Actor, in OrganiserInput) (store.Organiser, error) {
	if err := actor.RequireAdmin(); err != nil {
		return store.Organiser{}, err
	}
	if err := in.check(); err != nil {
		return store.Organiser{}, err
	}
	settings, err := mergeSettings("{}", DefaultEventSettings())
	if err != nil {
		return store.Organiser{}, err
	}
	now := o.now()
	org := store.Organiser{Name: in.Name, NameEn: in.NameEn, Kind: in.Kind, Note: in.Note, Settings: settings, CreatedAt: now, UpdatedAt: now}
	err = o.store.Tx(ctx, func(tx *store.Store) error { return tx.CreateOrganiser(ctx, &org) })
	return org, err
}

// UpdateOrganiser changes an organiser's names, kind and note. Events
// already created keep the settings they copied.
func (o *Office) UpdateOrganiser(ctx context.Context, actor Actor, id int64, in OrganiserInput) error {
	if err := actor.RequireAdmin(); err != nil {
		return err
	}
	if err := in.check(); err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		return tx.UpdateOrganiser(ctx, store.Organiser{ID: id, Name: in.Name, NameEn: in.NameEn, Kind: in.Kind, Note: in.Note}, o.now())
	})
}
