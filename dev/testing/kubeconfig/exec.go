package kubeconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The environment of the test binary run as a plugin: the token to print and the file each
// run appends a line to.
const (
	execTokenEnv = "KRM_TEST_EXEC_PLUGIN_TOKEN"
	execLogEnv   = "KRM_TEST_EXEC_PLUGIN_LOG"
)

// Exec is an exec credential plugin (client.authentication.k8s.io/v1): the test binary, run
// by the client with an environment that makes ServeExecPlugin print an ExecCredential with
// Token.
type Exec struct {
	Token string
	log   string
	// command and args, if set, are the plugin instead of the test binary (ExecCommand).
	command string
	args    []string
}

// ExecPlugin is a plugin printing token; the test binary's TestMain must call
// ServeExecPlugin first.
func ExecPlugin(t testing.TB, token string) *Exec {
	return &Exec{Token: token, log: filepath.Join(t.TempDir(), "exec-plugin.log")}
}

// ExecCommand is a plugin that runs command with args (a hostile one: it floods, hangs, or
// prints what is not an ExecCredential).
func ExecCommand(command string, args ...string) *Exec {
	return &Exec{command: command, args: args}
}

// Runs is how many times the plugin has run.
func (e *Exec) Runs() int {
	data, err := os.ReadFile(e.log)
	if err != nil {
		return 0
	}
	return bytes.Count(data, []byte("\n"))
}

type execUser struct {
	APIVersion      string    `json:"apiVersion"`
	Command         string    `json:"command"`
	Args            []string  `json:"args"`
	Env             []execEnv `json:"env"`
	InteractiveMode string    `json:"interactiveMode"`
}

type execEnv struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

func (e *Exec) entry() *execUser {
	if e.command != "" {
		return &execUser{APIVersion: "client.authentication.k8s.io/v1", Command: e.command, Args: e.args, Env: []execEnv{}, InteractiveMode: "Never"}
	}
	exe, err := os.Executable()
	if err != nil {
		panic(fmt.Sprintf("kubeconfig: the test binary: %v", err))
	}
	return &execUser{
		APIVersion: "client.authentication.k8s.io/v1", Command: exe, Args: []string{"-test.run=^$"},
		Env:             []execEnv{{execTokenEnv, e.Token}, {execLogEnv, e.log}},
		InteractiveMode: "Never",
	}
}

// ServeExecPlugin, when the test binary runs as an Exec plugin, prints its ExecCredential,
// notes the run and exits; otherwise it returns at once. Call it first in TestMain.
func ServeExecPlugin() {
	token, ok := os.LookupEnv(execTokenEnv)
	if !ok {
		return
	}
	if f, err := os.OpenFile(os.Getenv(execLogEnv), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		fmt.Fprintln(f, "run")
		f.Close()
	}
	cred := map[string]any{
		"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",
		"status": map[string]any{"token": token},
	}
	if err := json.NewEncoder(os.Stdout).Encode(cred); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}
