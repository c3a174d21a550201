// The terminal page: xterm.js drawing what the party's program prints, keys and taps sent back
// over one websocket (textual-serve's messages: ["stdin", text], ["resize", {width, height}],
// ["ping", text]; the server answers ["pong", text] and, at the end, ["ended", sentence]).
//
// A phone is a first-class player: held sideways it shows the 80x24 every screen is laid out
// for; held upright it gives the program fewer columns (down to what the screen in front needs,
// which the program says in a private OSC) in bigger letters and taller rows, with a line above
// the terminal saying that sideways is bigger still. A swipe scrolls what is under the finger
// (the log), as a mouse wheel would. The soft keyboard does not shrink the letters: the terminal
// keeps its size and shows its bottom (the line being typed) above the keyboard. A connection
// that stops answering is noticed within seconds; the page says so and comes back by itself
// (the cookie brings the guest back to their seat).
"use strict";
(() => {
  const FONTS = 'ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace';
  const LAYOUT = { columns: 80, rows: 24 }; // the size every screen is laid out for
  const SMALLEST_SCREEN = { columns: 60, rows: 20 }; // the least every screen fits (size.py)
  const LARGEST = 16, SMALLEST = 6; // font sizes in CSS pixels
  const READABLE = 11; // a font below this shows fewer columns instead (a phone held upright)
  const ROWS_UPRIGHT = 30, TALLEST_ROW = 1.6; // taller rows (bigger targets) beyond this many
  const ROOM_OSC = 7760; // the program's "the screen in front needs COLUMNS;ROWS"
  const PING_EVERY = 2000, SILENT_FOR = 5000; // ms: a ping unanswered this long is a lost line
  const CONNECT_WITHIN = 6000; // ms a new connection may take to open
  const RETRY_AFTER = [500, 1000, 2000, 3000, 5000]; // ms before each try to come back
  const element = document.getElementById("terminal");
  const box = document.getElementById("screen-box");
  const hint = document.getElementById("turn-hint");
  const lostLine = document.getElementById("lost");
  const touchScreen = window.matchMedia("(pointer: coarse)").matches;
  let endedSentence = null;
  let wanted = { ...SMALLEST_SCREEN }; // what the screen in front needs (its OSC)
  let settled = null; // the last fit with the whole page: { width, height, font, lineHeight }

  // -- the terminal's size ------------------------------------------------------------------
  function cellShape() {
    const probe = document.createElement("span");
    probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre;font-size:100px";
    probe.style.fontFamily = FONTS;
    probe.textContent = "W".repeat(10);
    document.body.appendChild(probe);
    const shape = probe.getBoundingClientRect();
    probe.remove();
    return { width: shape.width / 1000 || 0.6, height: shape.height / 100 || 1.2 };
  }
  const visibleHeight = () =>
    Math.floor(window.visualViewport ? window.visualViewport.height : window.innerHeight);

  // The font and row height for a page of `width` x `height` CSS pixels (the terminal's box),
  // and whether to say that sideways is bigger.
  function shape(width, height) {
    const cell = cellShape();
    const whole = Math.min(
      width / (LAYOUT.columns * cell.width), height / (LAYOUT.rows * cell.height)
    );
    if (whole >= READABLE || width >= height) {
      return { font: Math.max(SMALLEST, Math.floor(Math.min(LARGEST, whole))), lineHeight: 1 };
    }
    // Upright: the columns the screen in front needs, in the largest letters that show them.
    const columns = Math.max(SMALLEST_SCREEN.columns, wanted.columns);
    const rows = Math.max(SMALLEST_SCREEN.rows, wanted.rows);
    let font = Math.min(LARGEST, width / (columns * cell.width), height / (rows * cell.height));
    font = Math.max(SMALLEST, Math.floor(font * 2) / 2);
    const fitting = height / (font * cell.height);
    const lineHeight = Math.min(TALLEST_ROW, Math.max(1, fitting / ROWS_UPRIGHT));
    return { font, lineHeight: Math.floor(lineHeight * 10) / 10, upright: true };
  }

  function fit() {
    document.body.style.height = `${visibleHeight()}px`; // (the soft keyboard's room is not ours)
    const width = document.body.clientWidth, height = visibleHeight();
    const typing = touchScreen && settled !== null && width === settled.width &&
      height < settled.height * 0.85; // the soft keyboard is open
    if (typing) {
      fitAboveKeyboard();
      return;
    }
    hint.hidden = !(height > width && shape(width, height).upright);
    const room = box.getBoundingClientRect();
    const { font, lineHeight } = shape(room.width, room.height);
    element.style.top = "0";
    element.style.height = "";
    terminal.options.fontSize = font;
    terminal.options.lineHeight = lineHeight;
    fitAddon.fit();
    settled = { width, height, font, lineHeight };
  }

  // Keyboard open: the same letters, one-line rows, and as many as fit (at least what the
  // screen needs): the terminal's bottom shows above the keyboard, its top may go out of sight.
  function fitAboveKeyboard() {
    terminal.options.fontSize = settled.font;
    terminal.options.lineHeight = 1;
    const room = box.getBoundingClientRect();
    const row = rowHeight();
    const rows = Math.max(Math.floor(room.height / row), wanted.rows, SMALLEST_SCREEN.rows);
    element.style.height = `${rows * row}px`;
    element.style.top = `${Math.min(0, room.height - rows * row)}px`;
    const proposed = fitAddon.proposeDimensions();
    terminal.resize(proposed ? proposed.cols : terminal.cols, rows);
  }

  function rowHeight() {
    const screen = element.querySelector(".xterm-screen");
    const drawn = screen ? screen.getBoundingClientRect().height / terminal.rows : 0;
    const core = terminal._core; // (as the fit addon reads it: the renderer's cell)
    const measured = core && core._renderService && core._renderService.dimensions.css.cell.height;
    return measured || drawn || terminal.options.fontSize * 1.2;
  }

  const terminal = new Terminal({
    fontFamily: FONTS,
    fontSize: 13,
    scrollback: 0,
    allowProposedApi: true,
    theme: { background: "#0c181f" },
  });
  const fitAddon = new FitAddon.FitAddon();
  terminal.loadAddon(fitAddon);
  // Wide characters (an emoji in a name) take the cells the program counts them in (Unicode 11
  // widths, as rich's); xterm.js's own Unicode 6 table drew them one cell wide, and the rest of
  // their line, its border too, one cell to the left.
  terminal.loadAddon(new Unicode11Addon.Unicode11Addon());
  terminal.unicode.activeVersion = "11";
  terminal.open(element);
  fit();
  // The program says what the screen in front needs (a table may need more than 60 columns).
  terminal.parser.registerOscHandler(ROOM_OSC, (data) => {
    const [columns, rows] = data.split(";").map(Number);
    if (columns > 0 && rows > 0 && (columns !== wanted.columns || rows !== wanted.rows)) {
      wanted = { columns: Math.min(columns, 200), rows: Math.min(rows, 100) };
      fit();
    }
    return true;
  });
  let refit = null;
  const fitSoon = () => {
    clearTimeout(refit);
    refit = setTimeout(fit, 50);
  };
  window.addEventListener("resize", fitSoon);
  if (window.visualViewport) window.visualViewport.addEventListener("resize", fitSoon);

  // -- the connection -----------------------------------------------------------------------
  let socket = null, heardAt = 0, pingAt = 0, tries = 0, lost = false;
  const send = (message) => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const size = `width=${terminal.cols}&height=${terminal.rows}`;
    const mine = new WebSocket(`${scheme}${location.host}/ws?${size}`);
    socket = mine;
    pingAt = 0;
    mine.binaryType = "arraybuffer";
    setTimeout(() => {
      if (socket === mine && mine.readyState === WebSocket.CONNECTING) connectionLost(mine);
    }, CONNECT_WITHIN);
    mine.addEventListener("open", () => {
      if (socket !== mine) return;
      heardAt = performance.now();
      if (lost) terminal.reset(); // a new program draws the screen afresh
      lost = false;
      lostLine.hidden = true;
      element.classList.remove("stale");
      send(["resize", { width: terminal.cols, height: terminal.rows }]);
      terminal.focus();
    });
    mine.addEventListener("message", (event) => {
      if (socket !== mine) return;
      heardAt = performance.now();
      tries = 0;
      if (typeof event.data === "string") {
        const [kind, data] = JSON.parse(event.data);
        if (kind === "ended") showEnded(data);
      } else {
        terminal.write(new Uint8Array(event.data));
      }
    });
    mine.addEventListener("close", () => connectionLost(mine));
  }

  // The connection `which` is gone or silent: say so, and come back by itself.
  function connectionLost(which) {
    if (socket !== which || endedSentence !== null) return;
    socket = null;
    try {
      which.close();
    } catch (ignored) {} // (closing one that never opened)
    lost = true;
    element.classList.add("stale");
    lostLine.textContent = "The connection to the party is lost: trying to get back...";
    lostLine.hidden = false;
    const wait = RETRY_AFTER[Math.min(tries, RETRY_AFTER.length - 1)];
    tries += 1;
    setTimeout(connect, wait);
  }

  // A ping when nothing is waiting for an answer; a ping unanswered for a while is a lost line.
  setInterval(() => {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const now = performance.now();
    if (pingAt && heardAt < pingAt) {
      if (now - pingAt > SILENT_FOR) connectionLost(socket);
      return;
    }
    pingAt = now;
    send(["ping", String(Math.round(now))]);
  }, PING_EVERY);

  function showEnded(sentence) {
    if (endedSentence !== null) return;
    endedSentence = sentence;
    lostLine.hidden = true;
    document.getElementById("ended-sentence").textContent = sentence;
    document.getElementById("ended").hidden = false;
  }
  document.getElementById("again").addEventListener("click", () => location.reload());

  terminal.onData((data) => send(["stdin", data]));
  terminal.onResize(({ cols, rows }) => send(["resize", { width: cols, height: rows }]));
  connect();

  // -- a swipe scrolls what is under the finger (the log), a notch a row --------------------
  // A touch's moves go to the element it began on, even once that element has left the page
  // (the terminal redraws its rows as the game goes on): they are listened for there.
  box.addEventListener("touchstart", (event) => {
    if (event.touches.length !== 1) return;
    const start = event.touches[0], on = event.target;
    const swipe = { x: start.clientX, y: start.clientY, moving: false, moved: 0 };
    const move = (moving) => {
      if (moving.touches.length !== 1) return;
      const dy = moving.touches[0].clientY - swipe.y, row = rowHeight();
      if (!swipe.moving && Math.abs(dy) < row / 2) return; // still a tap
      swipe.moving = true;
      moving.preventDefault();
      const notches = Math.trunc(-dy / row) - swipe.moved; // finger up: on to newer lines
      swipe.moved += notches;
      for (let notch = 0; notch < Math.abs(notches); notch++) {
        wheel(swipe.x, swipe.y, Math.sign(notches));
      }
    };
    const end = () => {
      on.removeEventListener("touchmove", move);
      on.removeEventListener("touchend", end);
      on.removeEventListener("touchcancel", end);
    };
    on.addEventListener("touchmove", move, { passive: false });
    on.addEventListener("touchend", end);
    on.addEventListener("touchcancel", end);
  }, { passive: true });

  // One notch of a mouse wheel at page point x, y (xterm.js reports it to the program).
  function wheel(x, y, direction) {
    const screen = element.querySelector(".xterm-screen");
    screen.dispatchEvent(new WheelEvent("wheel", {
      deltaY: direction, deltaMode: WheelEvent.DOM_DELTA_LINE, clientX: x, clientY: y,
      bubbles: true, cancelable: true,
    }));
  }

  // -- for tests and the curious: what the terminal shows, as text, and where ----------------
  window.tablegames = {
    terminal,
    ended: () => endedSentence,
    lost: () => lost,
    wanted: () => ({ ...wanted }),
    // The middle of the cell at `column`, `row` (from 0), in page pixels.
    cell: (column, row) => {
      const screen = element.querySelector(".xterm-screen").getBoundingClientRect();
      const width = screen.width / terminal.cols, height = screen.height / terminal.rows;
      return { x: screen.left + (column + 0.5) * width, y: screen.top + (row + 0.5) * height };
    },
    // The middle of the lowest place `text` is drawn (on a line that also shows `onLineWith`,
    // if given), in page pixels (null: nowhere).
    where: (text, onLineWith) => {
      if (!text) return null;
      const buffer = terminal.buffer.active;
      const screen = element.querySelector(".xterm-screen").getBoundingClientRect();
      const width = screen.width / terminal.cols, height = screen.height / terminal.rows;
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
        if (found >= 0 && (!onLineWith || drawn.includes(onLineWith))) {
          const middle = (columns[found] + columns[found + text.length - 1] + 1) / 2;
          return { x: screen.left + middle * width, y: screen.top + (row + 0.5) * height };
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
