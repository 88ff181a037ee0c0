//go:build !linux

package site

func swap(tmp, dir string) error { return swapInPlace(tmp, dir) }
