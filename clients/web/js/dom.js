// Small DOM helpers: build elements without innerHTML (so no markup is ever injected).

/** `el("button", {class: "x", text: "Go", "aria-label": "..."}, [children])`. */
export function el(tag, attributes = {}, children = []) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") element.textContent = value;
    else if (name === "class") element.className = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** Show a message for a few seconds in the page's toast (role=alert, so it is read out). */
export function toast(text, milliseconds = 4000) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    box.hidden = true;
  }, milliseconds);
}

/** Wire the close buttons of every <dialog> on the page. */
export function closableDialogs() {
  for (const dialog of document.querySelectorAll("dialog")) {
    for (const button of dialog.querySelectorAll("[data-close]")) {
      button.addEventListener("click", () => dialog.close());
    }
  }
}

/** Show the connection state in #connection ("online" hides it). */
export function showConnection(state, t) {
  const badge = document.getElementById("connection");
  badge.className = `connection ${state}`;
  badge.textContent = state === "online" ? "" : t(`ui.link_${state}`);
}

const FOUR_COLOUR_KEY = "gamenight.four_colour";

/** The four-colour deck (blue diamonds, green clubs): a per-screen choice, remembered. */
export function fourColourToggle(button) {
  const show = () => {
    const on = localStorage.getItem(FOUR_COLOUR_KEY) === "on";
    document.body.classList.toggle("four-colour", on);
    button.setAttribute("aria-pressed", String(on));
  };
  button.addEventListener("click", () => {
    const on = localStorage.getItem(FOUR_COLOUR_KEY) === "on";
    localStorage.setItem(FOUR_COLOUR_KEY, on ? "off" : "on");
    show();
  });
  show();
}
