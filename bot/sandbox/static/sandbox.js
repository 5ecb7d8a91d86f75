// The sandbox's additions to SimCord's page (served by bot/sandbox/page.py):
// - a channel picker: #games and its threads, newest first (a thread the bot opens is followed),
//   then Ama's DM with the bot (shown to her alone);
// - Discord timestamps (<t:…>) rendered again every second against the sandbox's clock (which may
//   be simulated: the server sends its "now" with each state), in the viewer's language.

const capability = location.hash.slice(1);
const POLL_MS = 1000;
const TICK_MS = 1000;
/** The profile language of SimCord's page, for a member without a language of their own. */
const PAGE_LOCALE = "en-US";

/** @type {{now: number, running: boolean, channel: string, channels: {id: string, name: string, thread: boolean, dm: boolean}[], languages: Record<string, string | null>} | null} */
let state = null;
let received = 0;
/** @type {Set<string> | null} */
let knownThreads = null;
/** @type {string | null} */
let following = null;

const strip = document.createElement("nav");
strip.id = "sandbox-channels";
strip.className = "sandbox-channels";
strip.setAttribute("aria-label", "Channels");
const label = document.createElement("label");
label.textContent = "Channel";
const picker = document.createElement("select");
picker.id = "sandbox-channel-picker";
picker.setAttribute("aria-label", "Channel");
label.append(picker);
const notice = document.createElement("span");
notice.id = "sandbox-notice";
notice.setAttribute("role", "status");
notice.setAttribute("aria-live", "polite");
strip.append(label, notice);
const layout = document.getElementById("channel-layout");
if (layout) layout.prepend(strip);

async function call(path) {
  const response = await fetch(path, { headers: { "X-Simcord-Capability": capability }, cache: "no-store" });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

function install(value) {
  state = value;
  received = performance.now();
  const options = value.channels.map((channel) => {
    const option = document.createElement("option");
    option.value = channel.id;
    option.textContent = channel.dm ? `✉️ ${channel.name}` : channel.thread ? `🧵 ${channel.name}` : `# ${channel.name}`;
    return option;
  });
  const same = options.length === picker.options.length
    && options.every((option, index) => option.value === picker.options[index].value
      && option.textContent === picker.options[index].textContent);
  if (!same) picker.replaceChildren(...options);
  if (picker.value !== value.channel) picker.value = value.channel;
  renderTimes();
}

/** Whether the page is between actions (SimCord's page ignores clicks meanwhile). */
function idle() {
  const status = document.getElementById("action-status");
  return !(status?.textContent || "").endsWith("…") && !document.querySelector("[aria-busy=true]");
}

/** @param {string} id */
async function show(id) {
  install(await call(`/sandbox/show?channel=${encodeURIComponent(id)}`));
}

async function poll() {
  try {
    install(await call("/sandbox/state"));
    const threads = state.channels.filter((channel) => channel.thread);
    if (knownThreads === null) knownThreads = new Set(threads.map((thread) => thread.id));
    const opened = threads.find((thread) => !knownThreads.has(thread.id));  // the newest first
    if (opened && idle() && following === null) {
      following = opened.id;
      try {
        for (const thread of threads) knownThreads.add(thread.id);
        if (state.channel !== opened.id) await show(opened.id);
        notice.textContent = `🧵 The game went to a thread of its own, “${opened.name}”: it is shown now (pick #${state.channels[0].name} above to go back).`;
      } finally {
        following = null;
      }
    }
  } catch (_) {
    // The sandbox stopped, or is busy: SimCord's page says so; try again later.
  }
  setTimeout(poll, POLL_MS);
}

picker.addEventListener("change", async () => {
  notice.textContent = "";
  try { await show(picker.value); } catch (_) { if (state) picker.value = state.channel; }
});

/** The sandbox's clock now (ms since the epoch), or null before it said. */
function serverNow() {
  if (!state) return null;
  return state.running ? state.now + (performance.now() - received) : state.now;
}

/** The language of the member the page is shown to. */
function viewerLocale() {
  const viewer = /** @type {HTMLSelectElement | null} */ (document.getElementById("viewer-picker"))?.value;
  const language = viewer && state?.languages?.[viewer];
  if (language) {
    try { return Intl.getCanonicalLocales(language)[0]; } catch (_) { /* not a locale: the page's */ }
  }
  return PAGE_LOCALE;
}

/** @type {Record<string, Intl.DateTimeFormatOptions>} as SimCord's text.js */
const FORMATS = {
  t: { hour: "numeric", minute: "2-digit" },
  T: { hour: "numeric", minute: "2-digit", second: "2-digit" },
  d: { year: "numeric", month: "2-digit", day: "2-digit" },
  D: { year: "numeric", month: "long", day: "numeric" },
  f: { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
  F: { weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit" },
};

/** A Discord timestamp as Discord shows it (the units and rounding of SimCord's text.js). */
function formatTimestamp(unix, style, locale, timeZone, now) {
  const date = new Date(unix * 1000);
  if (style === "R") {
    const seconds = (date.getTime() - now) / 1000;
    const absolute = Math.abs(seconds);
    const [unit, amount] = absolute < 60 ? ["second", seconds]
      : absolute < 3600 ? ["minute", seconds / 60]
        : absolute < 86400 ? ["hour", seconds / 3600]
          : absolute < 604800 ? ["day", seconds / 86400]
            : ["week", seconds / 604800];
    return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(Math.round(amount), unit);
  }
  return new Intl.DateTimeFormat(locale, { timeZone, ...(FORMATS[style] || FORMATS.f) }).format(date);
}

function renderTimes() {
  const now = serverNow();
  if (now === null) return;
  const locale = viewerLocale();
  for (const element of document.querySelectorAll("time.discord-timestamp[data-unix]")) {
    const unix = Number(element.dataset.unix);
    if (!Number.isFinite(unix)) continue;
    const timeZone = element.dataset.timezone || "UTC";
    try {
      const text = formatTimestamp(unix, element.dataset.style || "f", locale, timeZone, now);
      if (element.textContent !== text) element.textContent = text;
      const title = new Intl.DateTimeFormat(locale, { timeZone, dateStyle: "full", timeStyle: "long" }).format(new Date(unix * 1000));
      if (element.title !== title) element.title = title;
      if (element.lang !== locale) element.lang = locale;
    } catch (_) {
      // Left as SimCord rendered it.
    }
  }
}

// Each time the page draws messages anew, before it is painted.
new MutationObserver(renderTimes).observe(document.body, { childList: true, subtree: true });
setInterval(renderTimes, TICK_MS);
document.getElementById("viewer-picker")?.addEventListener("change", renderTimes);
if (capability) void poll();

// For the sandbox's tests.
window.sandboxPage = { serverNow, viewerLocale, formatTimestamp, state: () => state };
