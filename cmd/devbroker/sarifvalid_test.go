package main

// This file validates SARIF logs as the tests need it: against the SARIF
// 2.1.0 schema (testdata/sarif), by the rules the schema cannot say (every
// result has a ruleId, SARIF1010), and, where the SARIF Multitool is
// installed, by the Multitool itself.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaFile is the SARIF 2.1.0 schema the logs are validated
// against (testdata/sarif/README.md says where it comes from).
const sarifSchemaFile = "testdata/sarif/sarif-2.1.0.json"

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// compiledSARIFSchema compiles the SARIF 2.1.0 schema once.
func compiledSARIFSchema() (*jsonschema.Schema, error) {
	schemaOnce.Do(func() {
		abs, err := filepath.Abs(sarifSchemaFile)
		if err != nil {
			schemaErr = err
			return
		}
		f, err := os.Open(abs)
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		const url = "sarif-2.1.0.json"
		if schemaErr = c.AddResource(url, doc); schemaErr != nil {
			return
		}
		schema, schemaErr = c.Compile(url)
	})
	return schema, schemaErr
}

// validSARIF says why data is not a valid SARIF 2.1.0 log, or nil: the
// schema, every result's ruleId, and the SARIF Multitool's errors where it
// is installed (multitool reports whether it ran).
func validSARIF(data []byte) (multitool bool, err error) {
	s, err := compiledSARIFSchema()
	if err != nil {
		return false, err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return false, err
	}
	if err := s.Validate(inst); err != nil {
		return false, fmt.Errorf("not valid against the SARIF 2.1.0 schema: %v", err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Name string }
			}
			Results []struct {
				RuleID string `json:"ruleId"`
				Rule   *struct {
					ID string `json:"id"`
				} `json:"rule"`
				Message struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		return false, err
	}
	for _, r := range log.Runs {
		for _, res := range r.Results {
			if res.RuleID == "" && (res.Rule == nil || res.Rule.ID == "") {
				return false, fmt.Errorf("SARIF1010: a result of %s has neither ruleId nor rule.id: %q", r.Tool.Driver.Name, res.Message.Text)
			}
		}
	}
	return multitoolValid(data)
}

// multitoolPath finds the SARIF Multitool: the Sarif.Multitool beside the
// sarif-multitool-linux command npm installs, or $SARIF_MULTITOOL; "" when
// it is not installed.
func multitoolPath() string {
	if p := os.Getenv("SARIF_MULTITOOL"); p != "" {
		return p
	}
	bin, err := exec.LookPath("sarif-multitool-linux")
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		if mt := filepath.Join(filepath.Dir(real), "Sarif.Multitool"); fileExists(mt) {
			return mt
		}
	}
	return ""
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// multitoolValid runs `Sarif.Multitool validate` on data and fails on
// every error it reports (its warnings, such as a version that is not
// numeric, pass).
func multitoolValid(data []byte) (bool, error) {
	mt := multitoolPath()
	if mt == "" {
		return false, nil
	}
	dir, err := os.MkdirTemp("", "sarif-valid-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "log.sarif"), filepath.Join(dir, "validation.sarif")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		return false, err
	}
	cmd := exec.Command(mt, "validate", in, "-o", out)
	cmd.Env = append(os.Environ(), "DOTNET_CLI_TELEMETRY_OPTOUT=1")
	if o, err := cmd.CombinedOutput(); err != nil {
		return true, fmt.Errorf("Sarif.Multitool validate: %v\n%s", err, o)
	}
	vdata, err := os.ReadFile(out)
	if err != nil {
		return true, err
	}
	var v struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					ID        string   `json:"id"`
					Text      string   `json:"text"`
					Arguments []string `json:"arguments"`
				} `json:"message"`
			} `json:"results"`
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(vdata, &v); err != nil {
		return true, fmt.Errorf("Sarif.Multitool's own log: %v", err)
	}
	var errs []string
	for _, r := range v.Runs {
		for _, inv := range r.Invocations {
			if !inv.ExecutionSuccessful {
				errs = append(errs, "the Multitool's validation did not run to its end")
			}
		}
		for _, res := range r.Results {
			if res.Level == "error" {
				errs = append(errs, fmt.Sprintf("%s %s%s: %s", res.RuleID, res.Message.ID, res.Message.Text, strings.Join(res.Message.Arguments, " | ")))
			}
		}
	}
	if len(errs) > 0 {
		return true, fmt.Errorf("Sarif.Multitool validate found errors:\n%s\n%s", strings.Join(errs, "\n"), data)
	}
	return true, nil
}
