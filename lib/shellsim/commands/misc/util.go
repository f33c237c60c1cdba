package misc

import "time"

func unixDate(sec int64) string {
	return time.Unix(sec, 0).UTC().Format("Mon Jan _2 15:04:05 2006")
}
