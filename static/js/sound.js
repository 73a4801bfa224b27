// Sound cues synthesized with the Web Audio API (nothing to download): your turn, UNO, caught,
// a draw penalty. One mute switch for the whole site, remembered in localStorage.
const STORAGE_KEY = "uno.muted";

// Each cue: notes of [start (s), frequency (Hz), length (s), wave, end frequency?].
const CUES = {
  turn: [[0, 660, 0.14, "sine"], [0.13, 880, 0.22, "sine"]],
  uno: [[0, 523, 0.09, "triangle"], [0.08, 659, 0.09, "triangle"], [0.16, 784, 0.09, "triangle"], [0.24, 1047, 0.3, "triangle"]],
  caught: [[0, 520, 0.32, "square", 180], [0.3, 150, 0.25, "square"]],
  penalty: [[0, 200, 0.12, "sawtooth", 140], [0.16, 170, 0.16, "sawtooth", 110]],
};

let context = null;
const played = []; // the cues asked for, newest last (the browser tests read it)
const listeners = new Set();

export function isMuted() {
  return localStorage.getItem(STORAGE_KEY) === "1";
}

export function setMuted(muted) {
  localStorage.setItem(STORAGE_KEY, muted ? "1" : "0");
  for (const fn of listeners) fn(muted);
  if (!muted) audio(); // a click on the switch is the gesture that lets audio start
}

/** Call `fn(muted)` after each switch; returns the function that stops it. */
export function onMuteChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** Play a cue ("turn", "uno", "caught", "penalty") unless muted. */
export function cue(name) {
  const notes = CUES[name];
  if (!notes) return;
  played.push({ cue: name, muted: isMuted() });
  if (played.length > 50) played.shift();
  if (isMuted()) return;
  const ctx = audio();
  if (!ctx || ctx.state !== "running") return; // no gesture yet: the browser keeps it silent
  const start = ctx.currentTime + 0.01;
  for (const [at, freq, length, wave, endFreq] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.setValueAtTime(freq, start + at);
    if (endFreq) osc.frequency.exponentialRampToValueAtTime(endFreq, start + at + length);
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(wave === "sine" ? 0.25 : 0.12, start + at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + at);
    osc.stop(start + at + length + 0.02);
  }
}

/** The cues asked for so far (for the browser tests). */
export function playedCues() {
  return played.slice();
}

// Browsers start audio only after a gesture: the first click or key on the page unlocks it.
for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, () => {
    if (!isMuted()) audio();
  }, { once: true, capture: true });
}
