package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// crushSession gives Crush a finished session of n messages in the
// scenario's project, shaped like pincer's persist/longsession (the same
// prompts and markdown answers; every fifth turn a bash call and its result
// before the answer). Crush itself makes its database and a first session
// (`crush run` against the fake model: its migrations, its rows); the
// harness then replaces that session's messages with n rows written with
// the sqlite3 command in the format of Crush's internal/message (parts as
// [{"type":...,"data":...}]). It returns the last line of the transcript.
func crushSession(a *agent, scenario string, n int, baseURL string) (string, error) {
	if _, err := a.oneShot(scenario, baseURL, "hello"); err != nil {
		return "", err
	}
	db, err := findCrushDB(a.home(scenario), a.project(scenario))
	if err != nil {
		return "", err
	}
	q := func(sql string) ([]map[string]any, error) {
		out, err := exec.Command("sqlite3", "-json", db, sql).Output()
		if err != nil {
			return nil, fmt.Errorf("sqlite3 %s: %q: %v", db, sql, err)
		}
		var rows []map[string]any
		if len(strings.TrimSpace(string(out))) == 0 {
			return nil, nil
		}
		return rows, json.Unmarshal(out, &rows)
	}
	sessions, err := q("SELECT id FROM sessions ORDER BY updated_at DESC LIMIT 1")
	if err != nil || len(sessions) == 0 {
		return "", fmt.Errorf("crush made no session in %s (%v)", db, err)
	}
	sid, _ := sessions[0]["id"].(string)
	tmpl, err := q(fmt.Sprintf("SELECT * FROM messages WHERE session_id = '%s' AND role = 'assistant' LIMIT 1", sid))
	if err != nil || len(tmpl) == 0 {
		return "", fmt.Errorf("crush's session %s has no assistant message (%v)", sid, err)
	}
	t := tmpl[0]
	ms := true // timestamps in milliseconds, as the schema says; seconds if the row says so
	if v, ok := t["created_at"].(float64); ok && v < 1e11 {
		ms = false
	}
	start := time.Now().Add(-time.Hour)
	tick := 0
	stamp := func() int64 {
		tick++
		at := start.Add(time.Duration(tick) * time.Millisecond)
		if ms {
			return at.UnixMilli()
		}
		return at.Unix()
	}
	cols := make([]string, 0, len(t))
	for c := range t {
		cols = append(cols, c)
	}
	sort.Strings(cols)
	var sql strings.Builder
	sql.WriteString("BEGIN;\n")
	fmt.Fprintf(&sql, "DELETE FROM messages WHERE session_id = %s;\n", sqlString(sid))
	row := func(role string, parts []map[string]any) {
		b, _ := json.Marshal(parts)
		at := stamp()
		vals := make([]string, len(cols))
		for i, c := range cols {
			switch c {
			case "id":
				vals[i] = sqlString(fmt.Sprintf("bench-%s-%07d", sid[:min(8, len(sid))], tick))
			case "session_id":
				vals[i] = sqlString(sid)
			case "role":
				vals[i] = sqlString(role)
			case "parts":
				vals[i] = sqlString(string(b))
			case "created_at", "updated_at", "finished_at":
				vals[i] = fmt.Sprint(at)
			default:
				vals[i] = sqlValue(t[c])
			}
		}
		fmt.Fprintf(&sql, "INSERT INTO messages (%s) VALUES (%s);\n", strings.Join(cols, ", "), strings.Join(vals, ", "))
	}
	part := func(typ string, data map[string]any) map[string]any {
		return map[string]any{"type": typ, "data": data}
	}
	finish := func(reason string) map[string]any {
		return part("finish", map[string]any{"reason": reason, "time": time.Now().Unix()})
	}
	count, last := 0, ""
	for turn := 1; count < n; turn++ {
		row("user", []map[string]any{part("text", map[string]any{"text": fmt.Sprintf("Please do step %d of the plan", turn)})})
		count++
		if turn%5 == 0 && n-count >= 3 {
			call := fmt.Sprintf("call-%06d", turn)
			row("assistant", []map[string]any{
				part("text", map[string]any{"text": "I'll run the tests first."}),
				part("tool_call", map[string]any{"id": call, "name": "bash", "input": `{"command":"go test ./..."}`, "provider_executed": false, "finished": true}),
				finish("tool_use")})
			var out strings.Builder
			for k := 0; k < 12; k++ {
				fmt.Fprintf(&out, "ok  \tpincer/pkg%d\t0.%03ds\n", k, 10+k)
			}
			row("tool", []map[string]any{part("tool_result", map[string]any{"tool_call_id": call, "name": "bash",
				"content": out.String(), "data": "", "mime_type": "", "metadata": "", "is_error": false})})
			count += 2
		}
		var md strings.Builder
		fmt.Fprintf(&md, "## Step %d\n\nDone. What changed:\n\n", turn)
		for k := 0; k < 6; k++ {
			fmt.Fprintf(&md, "- item %d of step %d with **bold** and `code` text\n", k, turn)
		}
		last = fmt.Sprintf("Step %d is complete.", turn)
		md.WriteString("\n" + last)
		row("assistant", []map[string]any{part("text", map[string]any{"text": md.String()}), finish("end_turn")})
		count++
	}
	now := time.Now()
	upd := now.UnixMilli()
	if !ms {
		upd = now.Unix()
	}
	fmt.Fprintf(&sql, "UPDATE sessions SET message_count = (SELECT count(*) FROM messages WHERE session_id = %s), updated_at = %d WHERE id = %s;\nCOMMIT;\n",
		sqlString(sid), upd, sqlString(sid))
	cmd := exec.Command("sqlite3", db)
	cmd.Stdin = strings.NewReader(sql.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("sqlite3 %s: %v: %s", db, err, out)
	}
	got, err := q(fmt.Sprintf("SELECT count(*) AS n FROM messages WHERE session_id = %s", sqlString(sid)))
	if err != nil || len(got) == 0 || got[0]["n"] != float64(count) {
		return "", fmt.Errorf("crush's session %s: wrote %d messages, the database has %v (%v)", sid, count, got, err)
	}
	return last, nil
}

// findCrushDB finds the crush.db Crush made under its home or project.
func findCrushDB(roots ...string) (string, error) {
	for _, root := range roots {
		var found string
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() == "crush.db" {
				found = p
				return fs.SkipAll
			}
			return nil
		})
		if found != "" {
			return found, nil
		}
	}
	return "", fmt.Errorf("no crush.db under %s", strings.Join(roots, ", "))
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// sqlValue renders a value read with sqlite3 -json back as SQL.
func sqlValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return sqlString(x)
	case float64:
		return fmt.Sprint(x)
	case bool:
		if x {
			return "1"
		}
		return "0"
	default:
		b, _ := json.Marshal(x)
		return sqlString(string(b))
	}
}
