package shell

import (
	"fmt"
	"path"
	"strings"
)

// downloadedThenRun finds a network fetcher that saves a file which a
// later command of the same line runs as a program: `curl -o i.sh URL &&
// bash i.sh`, `wget URL/i.sh; sh i.sh`, `curl URL > x; chmod +x x; ./x`,
// `curl -O URL/i.sh && source i.sh`. The files a fetcher saves are its
// write redirects, curl -o/--output FILE and -O/--remote-name (the URL's
// base name), and wget -O/--output-document FILE or, without one, the
// URL's base name. The runs are an interpreter's script operand, a
// command named by a path, and source/. of a file. Paths are compared
// after resolving against env's directory.
func downloadedThenRun(a Analysis, env Env) (string, bool) {
	saved := map[string]string{} // resolved path -> the fetcher's text
	resolve := func(p string) string {
		if r, ok := env.resolve(word{val: p, src: p, lit: true, approx: p}); ok {
			return r
		}
		return path.Clean(p)
	}
	for _, c := range a.Commands {
		ws := unwrapAll(stringWords(c.Words, c.Literal))
		if len(ws) == 0 {
			continue
		}
		if len(ws) == 2 && ws[0].val == "cd" && ws[1].lit {
			if d, ok := env.resolve(ws[1]); ok {
				env.Cwd = d // follow a literal cd
			}
			continue
		}
		if isFetcher(c) {
			for _, r := range c.Redirects {
				if r.Write && r.Literal && !HarmlessTarget(r.Target) {
					saved[resolve(r.Target)] = c.Text
				}
			}
			for _, f := range fetchedFiles(path.Base(ws[0].val), values(ws[1:])) {
				saved[resolve(f)] = c.Text
			}
			continue
		}
		if len(saved) == 0 {
			continue
		}
		var runs []string
		name := ws[0].val
		if strings.Contains(name, "/") {
			runs = append(runs, name)
		}
		if k, idx := interpreterOf(ws); k == progFile && idx >= 0 && idx+1 < len(ws) {
			runs = append(runs, ws[idx+1].val)
		}
		for _, r := range runs {
			if fetch, ok := saved[resolve(r)]; ok {
				return fmt.Sprintf("Running a program downloaded from the network is never allowed (`%s` saves %s, then `%s` runs it).", fetch, r, c.Text), true
			}
		}
	}
	return "", false
}

// fetchedFiles lists the files curl or wget saves, given its arguments.
func fetchedFiles(name string, args []string) []string {
	var out, urls []string
	remote := false
	explicit := false
	for i := 0; i < len(args); i++ {
		v := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch name {
		case "curl":
			switch {
			case v == "-o" || v == "--output":
				out = append(out, next())
			case strings.HasPrefix(v, "--output="):
				out = append(out, strings.TrimPrefix(v, "--output="))
			case v == "-O" || v == "--remote-name" || v == "--remote-name-all":
				remote = true
			case len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.HasSuffix(v, "o"):
				out = append(out, next())
			case len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.Contains(v, "O"):
				remote = true
			case !strings.HasPrefix(v, "-"):
				urls = append(urls, v)
			}
		case "wget", "wget2":
			switch {
			case v == "-O" || v == "--output-document":
				explicit = true
				if f := next(); f != "-" {
					out = append(out, f)
				}
			case strings.HasPrefix(v, "--output-document="):
				explicit = true
				if f := strings.TrimPrefix(v, "--output-document="); f != "-" {
					out = append(out, f)
				}
			case len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.Contains(v, "O"):
				explicit = true
				f := v[strings.IndexByte(v, 'O')+1:]
				if f == "" {
					f = next()
				}
				if f != "-" && f != "" {
					out = append(out, f)
				}
			case !strings.HasPrefix(v, "-"):
				urls = append(urls, v)
			}
		}
	}
	if remote || (name == "wget" || name == "wget2") && !explicit {
		for _, u := range urls {
			if b := urlBase(u); b != "" {
				out = append(out, b)
			}
		}
	}
	return out
}

// urlBase is the last path element of a URL ("" when it has none).
func urlBase(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	i := strings.IndexByte(u, '/')
	if i < 0 {
		return ""
	}
	b := path.Base(u[i:])
	if b == "/" || b == "." {
		return ""
	}
	return b
}
