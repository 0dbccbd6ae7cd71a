// Sổ Tiến Lên's service worker, served at /sw.js so that its scope is the whole site.
//
// * The app shell (stylesheet, scripts, icons) is cached when the worker installs; static
//   files are answered from the cache first.
// * Pages always come from the network. The last sitting page viewed is kept, so that the
//   installed app opens on it without a connection: read-only and marked offline
//   (static/js/app.js reads the mark).
// * Anything but GET (every save, settle-up, undo) is left to the network: the worker never
//   caches nor answers it, so a save offline fails as it would without a worker and the
//   pending-save queue (static/js/pending.js) keeps it.
// * Both caches are named after VERSION, a hash of the shell's files and of this file: a
//   deploy that changes them installs a new worker, which deletes every older cache.
"use strict";
var VERSION = "{{ version }}";
var SHELL_CACHE = "tienlen-shell-" + VERSION;
var PAGES_CACHE = "tienlen-pages-" + VERSION;
var SHELL = {{ shell|safe }};
var STATIC = {{ static_prefix|safe }};
var SITTING = /^\/s\/\d+\/$/;
var LAST = "/__last-sitting__";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then(function (cache) { return cache.addAll(SHELL); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.indexOf("tienlen-") === 0 && key !== SHELL_CACHE && key !== PAGES_CACHE;
      }).map(function (key) { return caches.delete(key); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// A page of a signed-out visitor asks for the kept sitting to be forgotten.
self.addEventListener("message", function (event) {
  if (event.data === "forget-pages") event.waitUntil(caches.delete(PAGES_CACHE));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(STATIC) === 0) {
    event.respondWith(staticFile(request, url));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  }
  // Anything else (htmx fragments, the board's poll, downloads): the network, as is.
});

function staticFile(request, url) {
  var inShell = SHELL.indexOf(url.pathname) !== -1;
  return caches.open(SHELL_CACHE).then(function (cache) {
    return cache.match(request).then(function (hit) {
      if (hit && inShell) return hit;  // the shell only changes with VERSION
      return fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      }).catch(function () { return hit || Response.error(); });
    });
  });
}

function page(request, url) {
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected && SITTING.test(url.pathname)) {
      keep(url.pathname, response.clone());
    }
    return response;
  }).catch(function () {
    return offline(url.pathname);
  });
}

// The last sitting page viewed, and only that one: a copy with the time it was taken.
function keep(path, response) {
  return response.text().then(function (html) {
    var headers = new Headers(response.headers);
    headers.delete("Content-Length");
    headers.delete("Content-Encoding");
    headers.set("X-Kept-At", new Date().toISOString());
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.keys().then(function (old) {
        return Promise.all(old.map(function (key) { return cache.delete(key); }));
      }).then(function () {
        return Promise.all([
          cache.put(path, new Response(html, { status: 200, headers: headers })),
          cache.put(LAST, new Response(path))
        ]);
      });
    });
  });
}

function offline(path) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.match(LAST).then(function (last) {
      if (!last) return noCopy();
      return last.text().then(function (lastPath) {
        if (lastPath !== path) return Response.redirect(lastPath, 302);
        return cache.match(lastPath).then(function (copy) {
          return copy ? marked(copy) : noCopy();
        });
      });
    });
  });
}

// The kept copy, marked as such on its <html> element (app.js shows the note and makes the
// page read-only). Its own headers go with it: the nonces in the copy match its CSP.
function marked(copy) {
  var kept = copy.headers.get("X-Kept-At") || "";
  return copy.text().then(function (html) {
    html = html.replace("<html ", '<html data-offline="' + kept + '" ');
    return new Response(html, { status: 200, headers: copy.headers });
  });
}

function noCopy() {
  var html = '<!doctype html><html lang="vi"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Ngoại tuyến · Offline</title><link rel="stylesheet" href="' + SHELL[0] + '"></head>' +
    '<body><main class="wrap"><h1>Ngoại tuyến</h1>' +
    '<p>Chưa có bàn nào được lưu để xem khi không có mạng. Mở một bàn khi có mạng là nó được lưu.</p>' +
    '<h2 lang="en">Offline</h2><p lang="en">No sitting has been kept for offline viewing yet. ' +
    'Open one while online and it is kept.</p></main></body></html>';
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}
