// Package sizelimit reads input files up to a size limit, so that a huge or
// endless input is refused before it is read into memory. Only regular files
// are read by name: a named pipe, a socket or a device (/dev/stdin among
// them) could block forever or never end, so it is refused before it is
// opened; "-" names standard input explicitly.
package sizelimit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Default is the largest snapshot (and config file) apiver reads unless the
// config says otherwise: more than ten times the largest real snapshot we
// know (2.4 MB), and small enough that loading one stays within a few GB of
// memory.
const Default int64 = 32 << 20

// Stdin is the argument that reads standard input.
const Stdin = "-"

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

// NotRegularError refuses what is not a regular file once symlinks are
// resolved.
type NotRegularError struct{ Mode fs.FileMode }

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("not a regular file (%s): apiver reads regular files only, and standard input when named -", kind(e.Mode))
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "an irregular file"
}

// ReadFile reads the file if it holds at most limit bytes (limit <= 0 means
// Default); path "-" reads standard input, up to the same limit. Anything
// but a regular file (after symlinks) is refused with a *NotRegularError
// without being read; a regular file is measured before anything is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = Default
	}
	if path == Stdin {
		return Read(os.Stdin, limit)
	}
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() > limit {
		return nil, &Error{Size: info.Size(), Limit: limit}
	}
	return read(f, info.Size(), limit)
}

// open opens a regular file for reading, refusing anything else with a
// *NotRegularError before it can block: the mode is checked before the
// open, and again on what was opened (without waiting for a writer), in
// case the name was swapped between the two.
func open(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		if pathErr, ok := err.(*fs.PathError); ok {
			pathErr.Op = "open" // what the caller asked for
		}
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Mode: info.Mode()}
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, err
	}
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, &NotRegularError{Mode: info.Mode()}
	}
	return f, nil
}

// Problem is what went wrong in reading a file, in words that do not name
// it (the caller does): "no such file", "permission denied", the refusal
// of a file too large or not regular.
func Problem(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	if pathErr, ok := errors.AsType[*fs.PathError](err); ok {
		return pathErr.Err.Error()
	}
	return err.Error()
}

// Read reads r to its end if that is at most limit bytes (limit <= 0 means
// Default), and stops one byte past the limit otherwise.
func Read(r io.Reader, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = Default
	}
	return read(r, 512, limit)
}

// read is Read into a buffer first made for size bytes (a file's size,
// which it may no longer have), as os.ReadFile reads.
func read(r io.Reader, size, limit int64) ([]byte, error) {
	data := make([]byte, 0, min(size, limit)+1)
	r = io.LimitReader(r, limit+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(data)) > limit {
		return nil, &Error{Size: -1, Limit: limit}
	}
	return data, nil
}
