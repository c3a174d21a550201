// The terminal page: xterm.js drawing what the party's program prints, keys and taps sent back
// over one websocket (textual-serve's messages: ["stdin", text], ["resize", {width, height}],
// ["ping", text]; the server answers ["pong", text] and, at the end, ["ended", sentence]).
"use strict";
(() => {
  const FONTS = 'ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace';
  const WANTED_COLUMNS = 80, WANTED_ROWS = 24; // the size every screen is laid out for
  const LARGEST = 16, SMALLEST = 6; // font sizes in CSS pixels
  const element = document.getElementById("terminal");
  const hint = document.getElementById("turn-hint");
  let endedSentence = null;

  // The largest font that still shows 80x24 in this window, so that a phone shows whole
  // screens (held sideways it gets bigger letters: the page says so when held upright).
  function cellShape() {
    const probe = document.createElement("span");
    probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre;font-size:100px";
    probe.style.fontFamily = FONTS;
    probe.textContent = "W".repeat(10);
    document.body.appendChild(probe);
    const box = probe.getBoundingClientRect();
    probe.remove();
    return { width: box.width / 1000 || 0.6, height: box.height / 100 || 1.2 };
  }
  function fontSize() {
    const cell = cellShape();
    // (the page's box, not the window's: a phone widens its window to fit what overflows)
    const width = element.clientWidth || window.innerWidth;
    const height = element.clientHeight || window.innerHeight;
    const across = width / (WANTED_COLUMNS * cell.width);
    const down = height / (WANTED_ROWS * cell.height);
    const size = Math.floor(Math.min(LARGEST, across, down));
    const upright = height > width;
    hint.hidden = !(upright && size < 11);
    return Math.max(SMALLEST, size);
  }

  const terminal = new Terminal({
    fontFamily: FONTS,
    fontSize: fontSize(),
    scrollback: 0,
    allowProposedApi: true,
    theme: { background: "#0c181f" },
  });
  const fit = new FitAddon.FitAddon();
  terminal.loadAddon(fit);
  terminal.open(element);
  fit.fit();

  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(
    `${scheme}${location.host}/ws?width=${terminal.cols}&height=${terminal.rows}`
  );
  socket.binaryType = "arraybuffer";
  const send = (message) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };

  function showEnded(sentence) {
    if (endedSentence !== null) return;
    endedSentence = sentence;
    document.getElementById("ended-sentence").textContent = sentence;
    document.getElementById("ended").hidden = false;
  }
  document.getElementById("again").addEventListener("click", () => location.reload());

  socket.addEventListener("open", () => {
    send(["resize", { width: terminal.cols, height: terminal.rows }]);
    terminal.focus();
  });
  socket.addEventListener("message", (event) => {
    if (typeof event.data === "string") {
      const [kind, data] = JSON.parse(event.data);
      if (kind === "ended") showEnded(data);
    } else {
      terminal.write(new Uint8Array(event.data));
    }
  });
  socket.addEventListener("close", () =>
    showEnded("The connection to the party closed. Open it again to go on.")
  );
  terminal.onData((data) => send(["stdin", data]));
  terminal.onResize(({ cols, rows }) => send(["resize", { width: cols, height: rows }]));
  window.addEventListener("resize", () => {
    terminal.options.fontSize = fontSize();
    fit.fit();
  });

  // For tests and the curious: what the terminal shows, as text, and where a cell is drawn.
  window.tablegames = {
    terminal,
    ended: () => endedSentence,
    // The middle of the cell at `column`, `row` (from 0), in page pixels.
    cell: (column, row) => {
      const box = element.querySelector(".xterm-screen").getBoundingClientRect();
      const width = box.width / terminal.cols, height = box.height / terminal.rows;
      return { x: box.left + (column + 0.5) * width, y: box.top + (row + 0.5) * height };
    },
    // The middle of the lowest place `text` is drawn, in page pixels (null: nowhere).
    where: (text) => {
      if (!text) return null;
      const buffer = terminal.buffer.active;
      const box = element.querySelector(".xterm-screen").getBoundingClientRect();
      const width = box.width / terminal.cols, height = box.height / terminal.rows;
      for (let row = terminal.rows - 1; row >= 0; row--) {
        const line = buffer.getLine(buffer.viewportY + row);
        if (!line) continue;
        let drawn = "";
        const columns = []; // the column each character of `drawn` starts at
        for (let column = 0; column < terminal.cols; column++) {
          const cell = line.getCell(column);
          if (!cell || cell.getWidth() === 0) continue; // the right half of a wide character
          const chars = cell.getChars() || " ";
          for (let unit = 0; unit < chars.length; unit++) columns.push(column);
          drawn += chars;
        }
        const found = drawn.lastIndexOf(text);
        if (found >= 0) {
          const middle = (columns[found] + columns[found + text.length - 1] + 1) / 2;
          return { x: box.left + middle * width, y: box.top + (row + 0.5) * height };
        }
      }
      return null;
    },
    screen: () => {
      const buffer = terminal.buffer.active;
      const lines = [];
      for (let row = 0; row < terminal.rows; row++) {
        const line = buffer.getLine(buffer.viewportY + row);
        lines.push(line ? line.translateToString(true) : "");
      }
      return lines.join("\n");
    },
  };
})();
