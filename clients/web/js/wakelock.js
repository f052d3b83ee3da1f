// Keeps the phone's screen on during play. The Screen Wake Lock API where the page may use
// it (a secure context: https or localhost); otherwise, or when the lock is refused, a tiny
// muted video playing in a loop, as NoSleep-style libraries do: phones keep the screen on
// while a video plays, and that needs no secure context (a phone on http://<LAN address>).
// <html data-wake-lock="api|video|off"> says which one holds (tests and bug reports read it).

const VIDEO_SOURCES = [
  ["/static/media/keep-awake.mp4", "video/mp4"], // H.264 + silent AAC: every phone
  ["/static/media/keep-awake.webm", "video/webm"], // VP8 + silent Opus
];

const held = { wanted: false, lock: null, asking: false, video: null };

function mark(how) {
  document.documentElement.dataset.wakeLock = how;
}

function video() {
  if (!held.video) {
    const element = document.createElement("video");
    element.muted = true; // muted video may start without a tap (autoplay rules)
    element.loop = true;
    element.playsInline = true;
    element.setAttribute("playsinline", "");
    element.setAttribute("aria-hidden", "true");
    element.className = "keep-awake-video";
    for (const [src, type] of VIDEO_SOURCES) {
      const source = document.createElement("source");
      source.src = src;
      source.type = type;
      element.append(source);
    }
    // In the page (tiny, see-through): some phones keep the screen on only for a video shown.
    document.body.append(element);
    held.video = element;
  }
  return held.video;
}

async function lockWithApi() {
  held.asking = true;
  try {
    const lock = await navigator.wakeLock.request("screen");
    if (!held.wanted) {
      lock.release().catch(() => {});
      return true;
    }
    held.lock = lock;
    lock.addEventListener("release", () => {
      if (held.lock !== lock) return;
      held.lock = null; // the page was hidden: asked again when it is back
      mark("off");
    });
    mark("api");
    return true;
  } catch {
    return false; // refused (battery saver, no permission): the video does it instead
  } finally {
    held.asking = false;
  }
}

async function playVideo() {
  try {
    await video().play();
    if (held.wanted) mark("video");
    else held.video.pause();
  } catch {
    mark("off"); // not allowed yet: tried again on the next tap
  }
}

function release() {
  if (held.lock) {
    const lock = held.lock;
    held.lock = null;
    lock.release().catch(() => {});
  }
  if (held.video && !held.video.paused) held.video.pause();
  mark("off");
}

/** Keep the screen on (`true`, during play) or let it sleep again (`false`). */
export async function keepAwake(on) {
  held.wanted = on;
  if (!on) {
    release();
    return;
  }
  if (document.visibilityState !== "visible" || held.lock || held.asking) return;
  if (held.video && !held.video.paused) return;
  if ("wakeLock" in navigator && (await lockWithApi())) return;
  if (held.wanted && !held.lock) await playVideo();
}

// Hidden pages lose their lock and their video; a video may need a tap to start.
document.addEventListener("visibilitychange", () => held.wanted && keepAwake(true));
document.addEventListener("pointerdown", () => held.wanted && keepAwake(true), { passive: true });
