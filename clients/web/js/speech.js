// Spoken announcements on the TV (speechSynthesis), switched off with one button; and
// listening on the phone (SpeechRecognition, where the browser has it).

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

/** The BCP 47 tag of the page's language, for speaking and for listening. */
export function voiceLanguage() {
  return VOICE_LANG[language()] || "en-GB";
}

/** Say `text` in the page's language, after whatever is being said now. */
export function say(text) {
  if (!speechOn() || !text) return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = voiceLanguage();
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

/** The browser's speech recogniser, if it has one (Chromium's needs its vendor's servers). */
export function recogniserClass() {
  return globalThis.SpeechRecognition || globalThis.webkitSpeechRecognition || null;
}

/** Listen once in the page's language; `onText(transcript)` with what was heard. */
export function listen(onText, onFailure) {
  const Recogniser = recogniserClass();
  if (!Recogniser) return;
  const recogniser = new Recogniser();
  recogniser.lang = voiceLanguage();
  recogniser.interimResults = false;
  recogniser.maxAlternatives = 1;
  recogniser.onresult = (event) => onText(event.results[0][0].transcript);
  recogniser.onerror = () => onFailure();
  recogniser.start();
}
