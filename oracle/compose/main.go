// Command compose-env prints, for each project folder named on its command line, each service's
// image and environment as Docker Compose resolves them: the compose-spec reference loader
// (compose-go, what `docker compose` runs) over the folder's compose.yml, with the folder's .env
// as the project environment and the services' env_file entries read. The shell's variables
// come first, as in `docker compose`: run it with `env -i` for none. tests/compose_env.rs
// compares kafkalint's reading with it.
//
// Output: one JSON object a line, in argument order:
//
//	{"dir":...,"services":{"NAME":{"image":...,"environment":{"VAR":"value" or null}}}}
//
// or {"dir":...,"error":"..."} when Compose refuses the project.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/compose-spec/compose-go/v2/cli"
)

type service struct {
	Image       string             `json:"image"`
	Environment map[string]*string `json:"environment"`
}

type result struct {
	Dir      string             `json:"dir"`
	Services map[string]service `json:"services,omitempty"`
	Error    string             `json:"error,omitempty"`
}

func load(dir string) result {
	options, err := cli.NewProjectOptions(
		[]string{filepath.Join(dir, "compose.yml")},
		cli.WithWorkingDirectory(dir),
		cli.WithName("project"),
		cli.WithOsEnv,
		cli.WithEnvFiles(),
		cli.WithDotEnv,
	)
	if err != nil {
		return result{Dir: dir, Error: err.Error()}
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		return result{Dir: dir, Error: err.Error()}
	}
	services := map[string]service{}
	for name, s := range project.Services {
		environment := map[string]*string{}
		for key, value := range s.Environment {
			environment[key] = value
		}
		services[name] = service{Image: s.Image, Environment: environment}
	}
	return result{Dir: dir, Services: services}
}

func main() {
	out := json.NewEncoder(os.Stdout)
	for _, dir := range os.Args[1:] {
		if err := out.Encode(load(dir)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
