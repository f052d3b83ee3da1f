// Drag and drop with pointer events (mouse and touch alike): a card or a pile is
// picked up, follows the finger, and is dropped on whatever [data-pile] is under it.

const THRESHOLD = 10; // px a pointer must travel before a tap becomes a drag
let suppressClickUntil = 0;

function targetAt(x, y) {
  const hit = document.elementFromPoint(x, y)?.closest("[data-pile]");
  return hit ? { name: hit.dataset.pile, element: hit } : null;
}

function clearHover() {
  for (const node of document.querySelectorAll(".drop-hover")) node.classList.remove("drop-hover");
}

/**
 * Make `element` draggable. `begin(selection)` runs when the drag starts (to mark the
 * targets); `drop(selection, pileName | null)` when it ends. A short tap stays a click.
 */
export function dragSource(element, selection, { begin, drop }) {
  // The finger drags the card or pile, it does not scroll the page (which would cancel).
  element.classList.add("draggable");
  element.style.touchAction = "none";
  element.addEventListener(
    "click",
    (event) => {
      if (Date.now() < suppressClickUntil) {
        event.stopImmediatePropagation();
        event.preventDefault();
      }
    },
    true,
  );
  element.addEventListener("pointerdown", (down) => {
    if (down.button !== 0 || !down.isPrimary) return;
    const start = { x: down.clientX, y: down.clientY };
    let ghost = null;
    const move = (event) => {
      if (!ghost) {
        if (Math.hypot(event.clientX - start.x, event.clientY - start.y) < THRESHOLD) return;
        ghost = element.cloneNode(true);
        ghost.classList.add("drag-ghost");
        ghost.setAttribute("aria-hidden", "true");
        document.body.append(ghost);
        element.classList.add("dragging");
        begin(selection);
      }
      ghost.style.left = `${event.clientX}px`;
      ghost.style.top = `${event.clientY}px`;
      clearHover();
      targetAt(event.clientX, event.clientY)?.element.classList.add("drop-hover");
    };
    const finish = (event, cancelled) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
      if (!ghost) return; // it was a tap: the click handler takes it
      ghost.remove();
      clearHover();
      element.classList.remove("dragging");
      suppressClickUntil = Date.now() + 400;
      const target = cancelled ? null : targetAt(event.clientX, event.clientY);
      drop(selection, target ? target.name : null);
    };
    const up = (event) => finish(event, false);
    const cancel = (event) => finish(event, true);
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
  });
}
