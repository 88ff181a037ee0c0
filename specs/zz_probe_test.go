package specs

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestZZProbe(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "common.yaml"), []byte("components:\n  schemas:\n    C:\n      type: integer\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "a.yaml"), []byte("components:\n  schemas:\n    A:\n      type: object\n      properties:\n        c:\n          $ref: '../common.yaml#/components/schemas/C'\n"), 0o644)
	main := "openapi: 3.0.3\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: './sub/a.yaml#/components/schemas/A'\n"
	p := filepath.Join(dir, "main.yaml")
	os.WriteFile(p, []byte(main), 0o644)
	s, err := Load(p, LoadOptions{})
	fmt.Printf("nested: %v\n", err)
	if err == nil {
		sch := s.Doc.Paths.Value("/a").Get.Responses.Value("200").Value.Content["application/json"].Schema.Value
		fmt.Println(sch.Type, sch.Properties["c"].Value.Type)
	}
	for _, v := range []string{"openapi: 3.1", "openapi: 3", "openapi: '3.1'", "openapi: 3.0.0-rc0", "openapi: 31.0.0", "openapi: '3.1.0'\njsonSchemaDialect: x"} {
		_, err := Parse("v.yaml", []byte(v+"\ninfo:\n  title: x\n  version: '1'\npaths: {}\n"), false)
		fmt.Printf("%q: %#v\n", v, err)
	}
	d31 := "openapi: 3.1.0\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                type: [string, \"null\"]\n"
	doc, err := Parse("d31.yaml", []byte(d31), false)
	fmt.Printf("31: %v\n", err)
	if err == nil {
		sch := doc.Paths.Value("/a").Get.Responses.Value("200").Value.Content["application/json"].Schema.Value
		fmt.Println(sch.Type.Slice(), doc.Paths.Value("/a").Get.Origin.Key.Line, doc.Paths.Value("/a").Get.Responses.Value("200").Value.Content["application/json"].Origin.Key)
	}
	js := `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"},
 "paths": {"/a": {"get": {"responses": {"200": {"description": "ok",
   "content": {"application/vnd.example.2024-01-01+json": {"schema": {"type": "string"}}}}}}}}}`
	doc, err = Parse("j.json", []byte(js), false)
	fmt.Printf("json: %v\n", err)
	if err == nil {
		ops := Operations(doc, "example")
		fmt.Println(ops[0].Line(), ops[0].VersionLine("2024-01-01"))
	}
}
