// HTTP calls of PROTOCOL.md, and what the browser keeps: the guest profile and each room's seat.
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network", "");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data && data.error) || {};
    const fallback = response.status === 404 ? "not_found" : "unknown";
    const detail = data && typeof data.detail === "string" ? data.detail : "";
    throw new ApiError(response.status, error.code || fallback, error.message || detail);
  }
  return data;
}

/** A key this browser keeps for itself (PROTOCOL.md `device`): a ban (O-BAN) holds against it
 * even under another name. Random, URL-safe, never shown. */
function deviceKey() {
  let key = localStorage.getItem("uno.device");
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem("uno.device", key);
  }
  return key;
}

const withDevice = (body) => ({ ...body, device: deviceKey() });

export const api = {
  createRoom: (body) => call("POST", "/api/rooms", withDevice(body)),
  joinRoom: (code, body) => call("POST", `/api/rooms/${encodeURIComponent(code)}/join`, withDevice(body)),
  listRooms: () => call("GET", "/api/rooms"),
  watchRoom: (code, body) => call("POST", `/api/rooms/${encodeURIComponent(code)}/watch`, withDevice(body)),
  quick: (body) => call("POST", "/api/quick", withDevice(body)),
  room: (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}`),
  createPlayer: (name) => call("POST", "/api/players", { name }),
  player: (id) => call("GET", `/api/players/${encodeURIComponent(id)}`),
  playerMatches: (id) => call("GET", `/api/players/${encodeURIComponent(id)}/matches`),
  match: (id) => call("GET", `/api/matches/${encodeURIComponent(id)}`),
  matchEvents: (id) => call("GET", `/api/matches/${encodeURIComponent(id)}/events`),
  createTournament: (body) => call("POST", "/api/tournaments", body),
  joinTournament: (code, body) => call("POST", `/api/tournaments/${encodeURIComponent(code)}/join`, body),
  tournament: (code) => call("GET", `/api/tournaments/${encodeURIComponent(code)}`),
  listTournaments: () => call("GET", "/api/tournaments"),
  createLeague: (body) => call("POST", "/api/leagues", body),
  league: (id) => call("GET", `/api/leagues/${encodeURIComponent(id)}`),
  /** Every league on the server, newest first: {leagues: [...], next} (pass next as `before`). */
  leagues: ({ limit, before } = {}) => {
    const query = new URLSearchParams();
    if (limit) query.set("limit", String(limit));
    if (before !== undefined && before !== null) query.set("before", String(before));
    const text = query.toString();
    return call("GET", `/api/leagues${text ? `?${text}` : ""}`);
  },
};

function readJson(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

/** The guest profile: {name, id?, key?}. The key is secret: it is only ever sent to our server. */
export const profile = {
  get: () => readJson("uno.profile") || { name: "" },
  save: (value) => localStorage.setItem("uno.profile", JSON.stringify(value)),
};

/** A seat per room ({token, seat}), so a reload keeps the seat. */
export const seats = {
  get: (code) => readJson(`uno.seat.${code}`),
  save: (code, value) => localStorage.setItem(`uno.seat.${code}`, JSON.stringify(value)),
  forget: (code) => localStorage.removeItem(`uno.seat.${code}`),
};

/** A named spectator's token per room ({token, spectator, queueNext?}): O-QUEUE. */
export const watchers = {
  get: (code) => readJson(`uno.watch.${code}`),
  save: (code, value) => localStorage.setItem(`uno.watch.${code}`, JSON.stringify(value)),
  forget: (code) => localStorage.removeItem(`uno.watch.${code}`),
};

/** A tournament's tokens in this browser: the host's ({token}) and a participant's
 * ({token, participant}), each kept by the tournament's code. */
export const tournamentHosts = {
  get: (code) => readJson(`uno.thost.${code}`),
  save: (code, value) => localStorage.setItem(`uno.thost.${code}`, JSON.stringify(value)),
  forget: (code) => localStorage.removeItem(`uno.thost.${code}`),
};
export const tournamentEntries = {
  get: (code) => readJson(`uno.tentry.${code}`),
  save: (code, value) => localStorage.setItem(`uno.tentry.${code}`, JSON.stringify(value)),
  forget: (code) => localStorage.removeItem(`uno.tentry.${code}`),
};

/** Leagues this browser created or opened, to list them again. */
export const knownLeagues = {
  get: () => readJson("uno.leagues") || [],
  add: (league) => {
    const list = knownLeagues.get().filter((l) => String(l.id) !== String(league.id));
    list.unshift(league);
    localStorage.setItem("uno.leagues", JSON.stringify(list.slice(0, 20)));
  },
};

/** Create a guest profile on the server if it has the endpoint; keep the name locally anyway. */
export async function ensureProfile(name) {
  const current = profile.get();
  const value = { ...current, name };
  if (!current.key) {
    try {
      const created = await api.createPlayer(name);
      value.id = created.id;
      value.key = created.key;
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 405)) throw error;
    }
  }
  profile.save(value);
  return value;
}
