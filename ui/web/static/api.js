// api.js: the panel's calls to `pincer serve`'s JSON API (README, "pincer
// serve"). The token travels as the HttpOnly cookie the printed URL set; a
// failure throws an ApiError with the API's stable code and message.

/** ApiError is a failed API call: status (HTTP), code (e.g. "lease_held") and message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", "the server did not answer: " + err.message);
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(res.status, e.code || "http_" + res.status, e.message || res.statusText);
  }
  return data;
}

const enc = encodeURIComponent;

/** The API routes, one function each. */
export const api = {
  sessions: () => call("GET", "/api/sessions"),
  createSession: (cwd) => call("POST", "/api/sessions", { cwd }),
  session: (id) => call("GET", "/api/sessions/" + enc(id)),
  submit: (id, input) => call("POST", "/api/sessions/" + enc(id) + "/turns", { input }),
  cancel: (id) => call("POST", "/api/sessions/" + enc(id) + "/cancel", {}),
  setMode: (id, mode) => call("POST", "/api/sessions/" + enc(id) + "/mode", { mode }),
  setModel: (id, model) => call("POST", "/api/sessions/" + enc(id) + "/model", { model }),
  approvals: () => call("GET", "/api/approvals"),
  answer: (requestId, decision, scope, reason) =>
    call("POST", "/api/approvals/" + enc(requestId), { decision, scope, reason }),
  server: () => call("GET", "/api/server"),
  eventsURL: (id) => "/api/sessions/" + enc(id) + "/events",
};
