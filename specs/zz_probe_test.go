package specs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apiver/apiver/specs"
)

func TestZZProbe(t *testing.T) {
	dir := t.TempDir()
	out := writeFile(t, dir, "outside.yaml", "components:\n  schemas:\n    X:\n      type: string\n")
	os.Symlink(out, filepath.Join(dir, "spec", "link.yaml"))
	os.MkdirAll(filepath.Join(dir, "spec"), 0o755)
	os.Symlink(out, filepath.Join(dir, "spec", "link.yaml"))
	for _, ref := range []string{"../outside.yaml#/components/schemas/X", out + "#/components/schemas/X", "file://" + out + "#/components/schemas/X", "./sub/../../outside.yaml#/components/schemas/X", "./link.yaml#/components/schemas/X", "../spec/inside.yaml#/components/schemas/X", "./nope.yaml#/components/schemas/X", "./inside.yaml#/components/schemas/Nope"} {
		writeFile(t, dir, "spec/inside.yaml", "components:\n  schemas:\n    X:\n      type: string\n")
		p := writeFile(t, dir, "spec/api.yaml", docWithContent("application/json")[:0]+"openapi: 3.0.3\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: '"+ref+"'\n")
		_, err := specs.Load(p, specs.LoadOptions{})
		fmt.Printf("%s: %v\n", ref, err)
	}
}
