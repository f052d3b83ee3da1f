// Spoken announcements on the TV (speechSynthesis), switched off with one button.

import { language } from "./i18n.js";

const STORAGE_KEY = "gamenight.speech";
const VOICE_LANG = { en: "en-GB", fr: "fr-FR", pt: "pt-PT", nl: "nl-NL" };

export function speechAvailable() {
  return "speechSynthesis" in globalThis && "SpeechSynthesisUtterance" in globalThis;
}

export function speechOn() {
  return speechAvailable() && localStorage.getItem(STORAGE_KEY) !== "off";
}

export function setSpeech(on) {
  localStorage.setItem(STORAGE_KEY, on ? "on" : "off");
  if (!on && speechAvailable()) speechSynthesis.cancel();
}

/** Say `text` in the page's language, after whatever is being said now. */
export function say(text) {
  if (!speechOn() || !text) return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = VOICE_LANG[language()] || "en-GB";
  const voice = speechSynthesis.getVoices().find((v) => v.lang === utterance.lang);
  if (voice) utterance.voice = voice;
  utterance.rate = 1.05;
  speechSynthesis.speak(utterance);
}

/** Wire a toggle button (aria-pressed shows the state). */
export function speechToggle(button) {
  if (!speechAvailable()) {
    button.hidden = true;
    return;
  }
  const show = () => {
    const on = speechOn();
    button.setAttribute("aria-pressed", String(on));
  };
  button.addEventListener("click", () => {
    setSpeech(!speechOn());
    show();
  });
  show();
}
