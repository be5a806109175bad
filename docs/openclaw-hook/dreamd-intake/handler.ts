// dreamd-intake: each preprocessed message to dreamd's live intake (POST /v1/messages).
// Plain JavaScript (valid TypeScript too), so it runs however the gateway loads hooks.

const TIMEOUT_MS = 5000;

function sessionKind(key) {
  const lowered = String(key || "").toLowerCase();
  if (lowered.includes(":cron:")) return "cron";
  if (lowered.includes(":heartbeat")) return "heartbeat";
  if (lowered.includes(":subagent:")) return "subagent";
  return "interactive";
}

function senderOf(context) {
  const id = context.senderId || context.from;
  if (!id) return null;
  const channel = String(context.channelId || context.provider || "").toLowerCase();
  const text = String(id);
  return channel && !text.toLowerCase().startsWith(channel + ":") ? channel + ":" + text : text;
}

const handler = async (event) => {
  if (!event || event.type !== "message" || event.action !== "preprocessed") return;
  const token = process.env.DREAMD_TOKEN;
  if (!token) return;
  const context = event.context || {};
  const text = context.bodyForAgent || context.body || "";
  if (!String(text).trim()) return;
  const body = {
    text: String(text),
    sender: senderOf(context),
    sessionKind: sessionKind(event.sessionKey),
  };
  if (process.env.DREAMD_WORKSPACE) body.workspace = process.env.DREAMD_WORKSPACE;
  const base = (process.env.DREAMD_URL || "http://127.0.0.1:8765").replace(/\/+$/, "");
  try {
    const response = await fetch(base + "/v1/messages", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) {
      const answer = await response.json().catch(() => ({}));
      console.warn("[dreamd-intake] " + response.status + ": " + (answer.error || "refused"));
    }
  } catch (error) {
    console.warn("[dreamd-intake] dreamd unreachable: " + (error && error.message));
  }
};

export default handler;
