package sizelimit

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sparse := func(name string, size int64) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, size); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := []struct {
		name     string
		path     string
		limit    int64
		wantSize int64 // of the *Error; 0: no error
	}{
		{"at the limit", sparse("at", 1<<20), 1 << 20, 0},
		{"one byte over", sparse("over", 1<<20+1), 1 << 20, 1<<20 + 1},
		{"200 MB over the default", sparse("huge", 200<<20), 0, 200 << 20},
		{"empty", sparse("empty", 0), 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			data, err := ReadFile(tt.path, tt.limit)
			if tt.wantSize == 0 {
				if err != nil {
					t.Fatalf("ReadFile: %v", err)
				}
				if info, _ := os.Stat(tt.path); int64(len(data)) != info.Size() {
					t.Errorf("read %d bytes, want %d", len(data), info.Size())
				}
				return
			}
			var tooBig *Error
			if !errors.As(err, &tooBig) || tooBig.Size != tt.wantSize {
				t.Fatalf("ReadFile = %v, want an *Error with Size %d", err, tt.wantSize)
			}
			if data != nil {
				t.Errorf("ReadFile returned data with the error")
			}
		})
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v, want ErrNotExist", err)
	}
}

// A stream has no size to measure: it is read one byte past the limit and
// no further.
func TestReadStopsPastTheLimit(t *testing.T) {
	t.Parallel()
	r := &countingReader{r: strings.NewReader(strings.Repeat("x", 10_000))}
	_, err := Read(r, 100)
	var tooBig *Error
	if !errors.As(err, &tooBig) || tooBig.Size != -1 {
		t.Fatalf("Read = %v, want an *Error of unknown size", err)
	}
	if r.n > 101+bytes.MinRead {
		t.Errorf("read %d bytes of a stream over a 100-byte limit", r.n)
	}
	if data, err := Read(strings.NewReader("12345"), 5); err != nil || string(data) != "12345" {
		t.Errorf("Read at the limit = %q, %v", data, err)
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestErrorMessage(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  Error
		want string
	}{
		{Error{Size: 209715200, Limit: 32 << 20}, "the file is 209715200 bytes, over the 32 MiB size limit"},
		{Error{Size: -1, Limit: 1000}, "the file is over the 1000 bytes size limit"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

// Anything but a regular file is refused before it is read: a named pipe
// without a writer would block the open, /dev/stdin a read, forever.
func TestReadFileRefusesWhatIsNotARegularFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "api.yaml")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	regular := filepath.Join(dir, "real.yaml")
	if err := os.WriteFile(regular, []byte("openapi: 3.0.3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linkToFifo := filepath.Join(dir, "link-to-fifo.yaml")
	linkToRegular := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(fifo, linkToFifo); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if err := os.Symlink(regular, linkToRegular); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, linkToFifo, dir, os.DevNull, "/dev/stdin"} {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		_, err := ReadFile(path, 0)
		var notRegular *NotRegularError
		if !errors.As(err, &notRegular) {
			t.Errorf("ReadFile(%s) = %v, want a *NotRegularError", path, err)
		}
	}
	if data, err := ReadFile(linkToRegular, 0); err != nil || string(data) != "openapi: 3.0.3\n" {
		t.Errorf("ReadFile(link to a regular file) = %q, %v", data, err)
	}
}

func TestNotRegularMessage(t *testing.T) {
	t.Parallel()
	got := (&NotRegularError{Mode: os.ModeNamedPipe}).Error()
	if !strings.Contains(got, "named pipe") {
		t.Errorf("message %q does not say what the file is", got)
	}
}
