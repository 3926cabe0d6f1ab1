//go:build !unix

package vector

import (
	"os"
	"time"
)

// Without flock, writers are not serialised across processes; paperlens's
// index lock (Bleve's) still allows only one index build at a time.
func lockFile(*os.File, time.Duration) error { return nil }

func unlockFile(*os.File) error { return nil }
