package permission

import (
	"errors"
	"os"
	"sort"

	"pincer/core/config"
)

// loadRules reads workspace's rule files as pincer does — core/config reads
// them (pincerHome as $PINCER_HOME, "" leaving the environment's), RulesFrom
// parses the rules — and returns every problem of both, by file in source
// order.
func loadRules(workspace, pincerHome string) (RuleSet, []error) {
	paths := config.PathsFrom(func(k string) string {
		if k == "PINCER_HOME" && pincerHome != "" {
			return pincerHome
		}
		return os.Getenv(k)
	})
	src := config.Read(paths, workspace)
	tables, errs := src.Permissions()
	rs, rerrs := RulesFrom(tables)
	all := append(append(src.Errors(), errs...), rerrs...)
	order := func(err error) int {
		var fe *config.FileError
		if errors.As(err, &fe) {
			for i, d := range src.Docs {
				if d.Path == fe.Path {
					return i
				}
			}
		}
		return len(src.Docs)
	}
	sort.SliceStable(all, func(i, j int) bool { return order(all[i]) < order(all[j]) })
	return rs, all
}
