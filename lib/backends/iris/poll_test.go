package iris

import (
	"testing"
	"time"
)

// The wait for a task to run: the regular backoff until a task ran; then
// a poll lands at four fifths of the last start's time, and the polls
// after it back off again from pollNear.
func TestPollWait(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		elapsed, regular, expected, want time.Duration
	}{
		{100 * ms, 150 * ms, 0, 150 * ms},        // no task ran yet
		{100 * ms, 50 * ms, 400 * ms, 50 * ms},   // early: the regular polls go on
		{300 * ms, 150 * ms, 400 * ms, 20 * ms},  // the next poll lands at 320 ms
		{320 * ms, 150 * ms, 400 * ms, pollNear}, // then polls come often
		{420 * ms, 150 * ms, 400 * ms, 25 * ms},  // and less often as time passes
		{2 * time.Second, 250 * ms, 400 * ms, 250 * ms},
		{10 * ms, 5 * ms, 400 * ms, 5 * ms}, // the first polls
	} {
		if got := pollWait(c.elapsed, c.regular, c.expected); got != c.want {
			t.Errorf("pollWait(%v, %v, %v) = %v, want %v", c.elapsed, c.regular, c.expected, got, c.want)
		}
	}
}
