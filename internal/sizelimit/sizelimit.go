// Package sizelimit reads input files up to a size limit, so that a huge or
// endless input is refused before it is read into memory.
package sizelimit

import (
	"fmt"
	"io"
	"os"
)

// Default is the largest snapshot (and config file) apiver reads unless the
// config says otherwise: more than ten times the largest real snapshot we
// know (2.4 MB), and small enough that loading one stays within a few GB of
// memory.
const Default int64 = 32 << 20

// Error refuses a file above the limit.
type Error struct {
	// Size is the file's size in bytes; -1 when the file is not a regular
	// file and its size is only known to be above the limit.
	Size  int64
	Limit int64
}

func (e *Error) Error() string {
	limit := fmt.Sprintf("%d bytes", e.Limit)
	if e.Limit%(1<<20) == 0 {
		limit = fmt.Sprintf("%d MiB", e.Limit>>20)
	}
	if e.Size < 0 {
		return fmt.Sprintf("the file is over the %s size limit", limit)
	}
	return fmt.Sprintf("the file is %d bytes, over the %s size limit", e.Size, limit)
}

// ReadFile reads the file if it holds at most limit bytes (limit <= 0 means
// Default). A regular file is measured before anything is read; anything
// else (a pipe, a device) is read up to one byte past the limit.
func ReadFile(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = Default
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Mode().IsRegular() && info.Size() > limit {
		return nil, &Error{Size: info.Size(), Limit: limit}
	}
	return Read(f, limit)
}

// Read reads r to its end if that is at most limit bytes (limit <= 0 means
// Default), and stops one byte past the limit otherwise.
func Read(r io.Reader, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = Default
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &Error{Size: -1, Limit: limit}
	}
	return data, nil
}
