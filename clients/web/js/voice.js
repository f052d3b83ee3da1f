// Speaking a move on the phone, offline: the microphone (getUserMedia) is recorded,
// downsampled in the page to 16 kHz mono 16-bit PCM, and sent as one `voice` clip on the
// seat's own topic (layout in protocol/voice.py). The assistant recognises it against the
// seat's legal moves and answers "heard: …" and then the move's reply, under the clip's id.
//
// Tap the button to start and again to stop, or hold it while speaking; recording also
// stops by itself after a pause following speech, and at MAX_SECONDS.

export const SAMPLE_RATE = 16000;
export const MAX_SECONDS = 6;
const VERSION = 1;
const LANGS = ["en", "fr", "pt", "nl"];
const FRAME = 320; // 20 ms at 16 kHz: the unit of the pause detector
const PAUSE_FRAMES = 35; // 0.7 s of quiet after speech ends the clip
const HOLD_MS = 450; // a press longer than this is hold-to-talk: releasing stops

/** Whether this page may record: a secure context with a microphone API and Web Audio. */
export function voiceCapable() {
  return Boolean(
    globalThis.isSecureContext &&
      navigator.mediaDevices?.getUserMedia &&
      (globalThis.AudioContext || globalThis.webkitAudioContext),
  );
}

/** The wire bytes of one clip: header (version, id, lang, rate) then little-endian PCM. */
export function encodeClip(id, lang, samples) {
  const idBytes = new TextEncoder().encode(id);
  const head = 2 + idBytes.length + 2 + 4;
  const bytes = new Uint8Array(head + samples.length * 2);
  const view = new DataView(bytes.buffer);
  bytes[0] = VERSION;
  bytes[1] = idBytes.length;
  bytes.set(idBytes, 2);
  bytes.set(new TextEncoder().encode(LANGS.includes(lang) ? lang : "en"), 2 + idBytes.length);
  view.setUint32(4 + idBytes.length, SAMPLE_RATE, true);
  for (let i = 0; i < samples.length; i += 1) view.setInt16(head + 2 * i, samples[i], true);
  return bytes;
}

/** From the microphone's rate to 16 kHz: each output sample averages its input span. */
export class Downsampler {
  constructor(inputRate, maxSeconds = MAX_SECONDS) {
    this.ratio = inputRate / SAMPLE_RATE;
    this.out = new Int16Array(SAMPLE_RATE * maxSeconds);
    this.length = 0;
    this.position = 0;
    this.sum = 0;
    this.count = 0;
  }

  get full() {
    return this.length >= this.out.length;
  }

  /** Add input samples (floats in -1..1); returns false once the clip is full. */
  push(input) {
    for (let i = 0; i < input.length && !this.full; i += 1) {
      this.sum += input[i];
      this.count += 1;
      this.position += 1;
      if (this.position >= this.ratio) {
        this.position -= this.ratio;
        const value = Math.max(-1, Math.min(1, this.sum / this.count));
        this.out[this.length] = Math.round(value * 32767);
        this.length += 1;
        this.sum = 0;
        this.count = 0;
      }
    }
    return !this.full;
  }

  samples() {
    return this.out.subarray(0, this.length);
  }
}

/** Tells when speech has ended: loud frames, then PAUSE_FRAMES quiet ones. */
export class PauseDetector {
  constructor() {
    this.floor = null;
    this.spoke = false;
    this.quiet = 0;
  }

  /** Feed one frame of 16-bit samples; true when the speaker has stopped. */
  frame(samples) {
    let energy = 0;
    for (const sample of samples) energy += sample * sample;
    const level = Math.sqrt(energy / samples.length);
    if (this.floor === null) this.floor = level;
    const loud = level > Math.max(600, 4 * this.floor);
    if (!loud) this.floor = 0.95 * this.floor + 0.05 * level;
    if (loud) {
      this.spoke = true;
      this.quiet = 0;
    } else if (this.spoke) {
      this.quiet += 1;
    }
    return this.spoke && this.quiet >= PAUSE_FRAMES;
  }
}

/** One recording: start() asks for the microphone; `onDone(samples)` when it stops. */
export class Recorder {
  constructor(onDone) {
    this.onDone = onDone;
    this.recording = false;
  }

  async start() {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
    });
    const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
    this.context = new Context();
    this.stream = stream;
    this.recording = true;
    const down = new Downsampler(this.context.sampleRate);
    const pauses = new PauseDetector();
    let checked = 0;
    const source = this.context.createMediaStreamSource(stream);
    // ScriptProcessor: deprecated but everywhere, and it needs no separate worklet file.
    const processor = this.context.createScriptProcessor(4096, 1, 1);
    processor.onaudioprocess = (event) => {
      if (!this.recording) return;
      const room = down.push(event.inputBuffer.getChannelData(0));
      let ended = false;
      while (checked + FRAME <= down.length) {
        ended = pauses.frame(down.out.subarray(checked, checked + FRAME)) || ended;
        checked += FRAME;
      }
      if (!room || ended) this.stop();
    };
    source.connect(processor);
    processor.connect(this.context.destination);
    this.down = down;
  }

  stop() {
    if (!this.recording) return;
    this.recording = false;
    for (const track of this.stream.getTracks()) track.stop();
    this.context.close();
    this.onDone(this.down.samples());
  }
}

/**
 * Make `button` record and send. `send(bytes, clipId)` publishes a clip; `newId()` names
 * it; `lang()` is the page's language; `onListening()` and `onFailure(error)` tell the
 * player. `preferBrowser()`, when true, hands the press to `listenInBrowser()` instead
 * (the browser's own recogniser, for languages the assistant cannot hear offline).
 */
export function wireVoice(button, options) {
  const { send, newId, lang, onListening, onFailure, preferBrowser, listenInBrowser } = options;
  let recorder = null;
  let pressedAt = 0;
  const finish = (samples) => {
    button.setAttribute("aria-pressed", "false");
    recorder = null;
    if (samples.length < SAMPLE_RATE / 10) return; // a stray tap: nothing said
    const clipId = newId("v");
    send(encodeClip(clipId, lang(), samples), clipId);
  };
  const begin = async () => {
    recorder = new Recorder(finish);
    button.setAttribute("aria-pressed", "true");
    try {
      await recorder.start();
      onListening();
    } catch (error) {
      recorder = null;
      button.setAttribute("aria-pressed", "false");
      onFailure(error);
    }
  };
  button.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    if (preferBrowser?.()) {
      listenInBrowser();
      return;
    }
    pressedAt = Date.now();
    if (recorder?.recording) recorder.stop();
    else if (!recorder) begin();
  });
  button.addEventListener("pointerup", () => {
    if (recorder?.recording && pressedAt && Date.now() - pressedAt > HOLD_MS) recorder.stop();
    pressedAt = 0;
  });
  // Keyboard users: Enter or Space toggles, as a tap does.
  button.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    if (recorder?.recording) recorder.stop();
    else if (!recorder) begin();
  });
}
