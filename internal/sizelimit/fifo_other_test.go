//go:build !unix

package sizelimit

import "errors"

func mkfifo(string) error { return errors.New("no named pipes") }
