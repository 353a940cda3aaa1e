package permission

import (
	"fmt"
	"sync"
	"testing"
)

// TestSaveLocalRuleConcurrentLosesNone: 100 "always allow" answers saved at once
// (several workbenches on one project) all land in settings.local.toml: each
// save is one config.Edit under the file's lock.
func TestSaveLocalRuleConcurrentLosesNone(t *testing.T) {
	ws := t.TempDir()
	const n = 100
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if err := SaveLocalRule(ws, Allow, Rule{Tool: "Bash", Specifier: fmt.Sprintf("make t%d", i)}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	rs, errs := loadRules(ws, t.TempDir())
	if len(errs) != 0 || len(rs.Allow) != n {
		t.Errorf("%d of %d rules saved (errors %v)", len(rs.Allow), n, errs)
	}
}
