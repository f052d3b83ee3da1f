// Translations: one JSON catalogue per language, flat keys ("error.stale_seq"),
// "{name}" placeholders. Messages on the wire carry codes and parameters; every
// screen words them in its own language here.

export const LANGUAGES = ["en", "fr", "pt", "nl"];
const STORAGE_KEY = "gamenight.lang";

const catalogues = {};
const loading = {};
let current = "en";
let paramFormatter = (name, value) => value;

/** The language to start with: the one chosen before, else the browser's, else English. */
export function preferredLanguage() {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

function load(code) {
  // One fetch per language, however many callers ask at once.
  loading[code] ||= fetch(`/static/i18n/${code}.json`)
    .then((response) => response.json())
    .then((catalogue) => {
      catalogues[code] = catalogue;
      return catalogue;
    });
  return loading[code];
}

/** Load `code` (and English, the fallback) and make it the current language. */
export async function setLanguage(code, { remember = false } = {}) {
  const chosen = LANGUAGES.includes(code) ? code : "en";
  await Promise.all([load("en"), load(chosen)]);
  current = chosen;
  document.documentElement.lang = chosen;
  if (remember) localStorage.setItem(STORAGE_KEY, chosen);
  return chosen;
}

export function language() {
  return current;
}

/** Pages teach the catalogue how to word parameters (cards, piles, seats). */
export function setParamFormatter(formatter) {
  paramFormatter = formatter;
}

export function has(key) {
  return key in (catalogues[current] || {}) || key in (catalogues.en || {});
}

function lookup(key) {
  return catalogues[current]?.[key] ?? catalogues.en?.[key];
}

/**
 * The number a sentence agrees with: `count` if given, else the first number among the
 * parameters its template names ("{deal} cards each"), a list counting its items.
 */
function pluralNumber(template, params) {
  if (typeof params.count === "number") return params.count;
  for (const [, name] of template.matchAll(/\{(\w+)\}/g)) {
    if (typeof params[name] === "number") return params[name];
    if (Array.isArray(params[name])) return params[name].length; // "{winners} win"
  }
  return null;
}

// Words a language fuses once a parameter is filled in: "em a pilha" is "na pilha".
const CONTRACTIONS = {
  fr: [[/\bà le\b/g, "au"], [/\bà les\b/g, "aux"], [/\bde le\b/g, "du"], [/\bde les\b/g, "des"]],
  pt: [
    [/\bem o\b/g, "no"], [/\bem a\b/g, "na"], [/\bde o\b/g, "do"], [/\bde a\b/g, "da"],
    [/\ba o\b/g, "ao"], [/\bpor o\b/g, "pelo"], [/\bpor a\b/g, "pela"],
    [/\bEm o\b/g, "No"], [/\bEm a\b/g, "Na"], [/\bDe o\b/g, "Do"], [/\bDe a\b/g, "Da"],
  ],
};

function contract(text) {
  for (const [pattern, fused] of CONTRACTIONS[current] || []) text = text.replace(pattern, fused);
  return text;
}

/**
 * The text of `key` in the current language with `{param}` filled in. A key may have
 * plural forms beside it ("ui.n_cards.one" next to "ui.n_cards", the other form): the
 * language's plural rule (Intl.PluralRules) picks one for the sentence's number.
 */
export function t(key, params = {}) {
  let template = lookup(key);
  if (template === undefined) return key;
  const number = pluralNumber(template, params);
  if (number !== null) {
    const form = new Intl.PluralRules(current).select(number);
    template = lookup(`${key}.${form}`) ?? template;
  }
  const filled = template.replace(/\{(\w+)\}/g, (whole, name) =>
    name in params ? String(paramFormatter(name, params[name], params)) : whole,
  );
  return contract(filled);
}

/** Names or piles as the language lists them: "Ana, Bob and Zoé", "Ana, Bob et Zoé". */
export function listOf(values, type = "conjunction") {
  return new Intl.ListFormat(current, { style: "long", type }).format(values.map(String));
}

/** A sentence starts with a capital, even when it starts with a parameter ("la pile…"). */
export function sentence(text) {
  return text ? text.charAt(0).toLocaleUpperCase(current) + text.slice(1) : text;
}

/** The message of a coded error or event; an unknown code still says something useful. */
export function describe(kind, item) {
  const key = `${kind}.${item.code}`;
  if (has(key)) return sentence(t(key, item.params || {}));
  return t(`${kind}.unknown`, { code: item.code });
}

/** Fill every [data-i18n], [data-i18n-aria-label], [data-i18n-title] under `root`. */
export function translatePage(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll("[data-i18n-aria-label]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nAriaLabel));
  }
  for (const element of root.querySelectorAll("[data-i18n-title]")) {
    element.title = t(element.dataset.i18nTitle);
  }
  for (const element of root.querySelectorAll("[data-i18n-placeholder]")) {
    element.placeholder = t(element.dataset.i18nPlaceholder);
  }
}

/** A <select> of the four languages; `onChange(code)` after the catalogue is loaded. */
export function languageSwitch(select, onChange) {
  select.replaceChildren(
    ...LANGUAGES.map((code) => {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = t(`lang.${code}`);
      option.lang = code;
      return option;
    }),
  );
  select.value = current;
  select.addEventListener("change", async () => {
    await setLanguage(select.value, { remember: true });
    translatePage();
    onChange(select.value);
  });
}
