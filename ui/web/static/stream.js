// stream.js: a session's event log, live, from the SSE route. EventSource
// reconnects by itself (after the server's retry: 1000) and sends
// Last-Event-ID, so the server resumes after the last event received; the
// view's sequence check (state.js) drops anything seen twice all the same.

import { api } from "./api.js";
import { EventTypes } from "./state.js";

/**
 * follow opens the event stream of session id: onEvent(flat event object)
 * for every event, onState("live" | "reconnecting" | "closed") as the
 * connection changes. It returns a function that closes the stream.
 */
export function follow(id, onEvent, onState) {
  const es = new EventSource(api.eventsURL(id), { withCredentials: true });
  const handler = (msg) => {
    let ev;
    try {
      ev = JSON.parse(msg.data);
    } catch {
      return; // not an event: never trust a frame that does not parse
    }
    onEvent(ev);
  };
  for (const t of EventTypes) es.addEventListener(t, handler);
  es.onmessage = handler; // an event without a type line
  es.onopen = () => onState("live");
  es.onerror = () => onState(es.readyState === EventSource.CLOSED ? "closed" : "reconnecting");
  return () => es.close();
}
