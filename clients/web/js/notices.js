// What the TV tells the players about reaching this computer (from /api/network): a loud
// warning when the QR code points at the computer itself, and, over https, the one-time
// "accept this certificate" step each phone makes.

import { t } from "./i18n.js";
import { el } from "./dom.js";

function noticeElement(notice) {
  const params = notice.params || {};
  if (notice.code === "loopback_only") {
    const url = `${params.scheme}://<${t("net.your_address")}>:${params.port}`;
    return el("p", {
      class: "notice notice-warning",
      role: "alert",
      "data-notice": notice.code,
      text: t("net.loopback_only", { address: params.address, url }),
    });
  }
  if (notice.code === "accept_certificate") {
    return el("div", { class: "notice notice-certificate", "data-notice": notice.code }, [
      el("h3", { text: t("net.certificate_title") }),
      el("ol", {}, [
        el("li", { text: t("net.certificate_warning") }),
        el("li", { text: t("net.certificate_proceed") }),
        el("li", { text: t("net.certificate_once", { broker_url: params.broker_url }) }),
      ]),
    ]);
  }
  return null;
}

/** Fill `box` with the notices of `network` (or hide it when there are none). */
export function renderNetworkNotices(box, network) {
  const shown = (network?.notices || []).map(noticeElement).filter(Boolean);
  box.hidden = shown.length === 0;
  box.replaceChildren(...shown);
}

/** The network notices, or null if the server cannot say (an older server: show none). */
export async function fetchNetwork() {
  try {
    const response = await fetch("/api/network");
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}
