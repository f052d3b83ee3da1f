// What this phone's browser allows the page, decided once: the microphone needs a secure
// context (https or localhost) and getUserMedia. On http://<LAN address> neither exists,
// but the keyboard's own dictation key still types spoken words into any text field.

/** True where the page can record the microphone. */
export function microphoneUsable() {
  return Boolean(globalThis.isSecureContext && navigator.mediaDevices?.getUserMedia);
}

/**
 * Show the microphone `button` only where it can work, else the dictation `hint`.
 * Returns whether the microphone is usable (then the caller wires the button).
 */
export function showVoiceInput(button, hint) {
  const usable = microphoneUsable();
  button.hidden = !usable;
  if (hint) hint.hidden = usable;
  document.documentElement.dataset.microphone = usable ? "yes" : "no";
  return usable;
}
