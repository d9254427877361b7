package day

import (
	"fmt"

	"kisen/office"
)

func notDay(eventID int64) error {
	return fmt.Errorf("event %d is not an amateur day: %w", eventID, office.ErrNotFound)
}
