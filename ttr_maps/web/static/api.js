// Shared by the pages ttr-maps serves: calls to the local server with the run's token.
// The token comes from the page's own URL (?token=...), printed by the server at start.
"use strict";
const TTR = (() => {
  const token = new URLSearchParams(location.search).get("token") || "";

  async function call(method, path, body) {
    const options = { method, headers: {} };
    if (method !== "GET" && method !== "HEAD") options.headers["X-TTR-Token"] = token;
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (e) {
      throw new Error("the ttr-maps server does not answer (was it stopped?)");
    }
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text }; }
    if (!response.ok) {
      const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
      error.status = response.status;
      error.data = data;
      throw error;
    }
    return data;
  }

  // Make an element with text set through textContent: board text never becomes markup.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  return {
    token,
    get: (path) => call("GET", path),
    post: (path, body) => call("POST", path, body === undefined ? {} : body),
    el,
  };
})();
