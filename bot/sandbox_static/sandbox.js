// The sandbox's additions to SimCord's page (served by bot/sandbox_page.py):
// a channel picker: #games and its threads, newest first; a thread the bot opens is followed.

const capability = location.hash.slice(1);
const POLL_MS = 1000;

/** @type {{channel: string, channels: {id: string, name: string, thread: boolean}[]} | null} */
let state = null;
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
  const options = value.channels.map((channel) => {
    const option = document.createElement("option");
    option.value = channel.id;
    option.textContent = channel.thread ? `🧵 ${channel.name}` : `# ${channel.name}`;
    return option;
  });
  const same = options.length === picker.options.length
    && options.every((option, index) => option.value === picker.options[index].value
      && option.textContent === picker.options[index].textContent);
  if (!same) picker.replaceChildren(...options);
  if (picker.value !== value.channel) picker.value = value.channel;
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

if (capability) void poll();
