package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"pincer/core/event"
	"pincer/persist"
	"pincer/persist/internal/record"
)

// TestListEventsPassThrough: over Badger the daemon answers ListEvents with
// the stored records byte for byte (no decode, no encode: the reply's result
// is the records joined into an array), and the client reads them into the
// events the store lists directly; a record that is not JSON is skipped by
// the daemon, one that is JSON but no event by the client, and both are
// counted in one *persist.CorruptError.
func TestListEventsPassThrough(t *testing.T) {
	ctx := context.Background()
	disk := openDisk(t, t.TempDir())
	r := serveRemote(t, disk)
	var stored [][]byte
	for i := 1; i <= 6; i++ {
		ev, err := event.New(event.MessageDelta, "s", "t", event.MessageDeltaData{MessageID: "m",
			Delta: fmt.Sprintf("part %d \"quoted\" <é> ✓\n", i), Kind: "text"})
		if err != nil {
			t.Fatal(err)
		}
		ev.Sequence, ev.Timestamp = uint64(i), t0.Add(time.Duration(i)*time.Millisecond)
		if err := disk.AppendEvent(ctx, ev); err != nil {
			t.Fatal(err)
		}
		b, _ := record.EncodeEvent(ev)
		stored = append(stored, b)
	}
	// A record as another writer may have spaced it: sent on as it is (a
	// decode and encode would compact it).
	spaced := []byte(`{"type": "notice", "sequence": 7, "sessionId": "s", "turnId": "", "timestamp": "2025-03-01T12:00:01Z", "level": "info", "source": "x", "message": "m"}`)
	if err := disk.WriteRaw(record.SeqKey(record.KindEvent, "s", 7), spaced); err != nil {
		t.Fatal(err)
	}
	stored = append(stored, spaced)
	want, err := disk.ListEvents(ctx, "s", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.ListEvents(ctx, "s", 0, 0)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("ListEvents through the daemon = %v, %v; want %v", got, err, want)
	}

	reply := postRaw(t, r.socket, "ListEvents", `{"id":"s","after":2}`)
	wantReply := `{"result":[` + string(bytes.Join(stored[2:], []byte(","))) + `]}`
	if reply != wantReply {
		t.Fatalf("reply:\n%s\nwant the stored records:\n%s", reply, wantReply)
	}

	if err := disk.WriteRaw(record.SeqKey(record.KindEvent, "s", 2), []byte("{\"seq\": \x00 not json")); err != nil {
		t.Fatal(err)
	}
	if err := disk.WriteRaw(record.SeqKey(record.KindEvent, "s", 4), []byte(`{"type":"message.delta","sequence":"four"}`)); err != nil {
		t.Fatal(err)
	}
	got, err = r.ListEvents(ctx, "s", 0, 0)
	var ce *persist.CorruptError
	if !errors.As(err, &ce) || ce.Count != 2 || ce.Kind != "event" || ce.SessionID != "s" {
		t.Fatalf("error %v: want 2 corrupt event records of s", err)
	}
	var seqs []uint64
	for _, ev := range got {
		seqs = append(seqs, ev.Sequence)
	}
	if !reflect.DeepEqual(seqs, []uint64{1, 3, 5, 6, 7}) {
		t.Fatalf("kept %v, want [1 3 5 6 7]", seqs)
	}
}

// postRaw sends one request of the protocol and returns the reply's body.
func postRaw(t *testing.T, socket, method, body string) string {
	t.Helper()
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", socket)
	}}}
	req, _ := http.NewRequest(http.MethodPost, "http://pincer-store"+pathPrefix+method, strings.NewReader(body))
	req.Header.Set(hdrProtocol, ProtocolVersion)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s %s", method, resp.Status, b)
	}
	return string(b)
}
