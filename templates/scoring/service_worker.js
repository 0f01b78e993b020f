/* The service worker of the table pages (scoring/views/offline.py serves it, with its settings).
 *
 * It keeps a copy of each table page opened (/games/<id>/, no secret in that address) and of
 * the static files those pages need: network first, the copy when the network fails, so the
 * keeper's page loads without a connection once it was opened. Nothing else is kept: not a
 * keeper link, not the API, not any organiser page. Every other request goes to the network
 * untouched. */
/* eslint-env serviceworker */
"use strict";

var CONFIG = {{ config|safe }};
var PAGE = new RegExp(CONFIG.page);

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) {
              return name !== CONFIG.cache;
            })
            .map(function (name) {
              return caches.delete(name);
            })
        );
      })
      .then(function () {
        return self.clients.claim();
      })
  );
});

function kept(url) {
  if (url.origin !== self.location.origin) return false;
  return PAGE.test(url.pathname) || url.pathname.indexOf("/static/") === 0;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (!kept(url)) return;
  // A page is kept under its address without the query (?deal=..&calls=.. after a call).
  var key = url.origin + url.pathname;
  var isPage = PAGE.test(url.pathname);
  event.respondWith(
    fetch(request)
      .then(function (response) {
        // Only a whole answer of this site, not a redirect (a keeper link lands here).
        if (response.ok && response.type === "basic" && !response.redirected) {
          var copy = response.clone();
          caches.open(CONFIG.cache).then(function (cache) {
            return cache.put(key, copy);
          });
        }
        return response;
      })
      .catch(function () {
        return caches.open(CONFIG.cache).then(function (cache) {
          return cache.match(isPage ? key : request, { ignoreSearch: true }).then(function (hit) {
            return hit || Response.error();
          });
        });
      })
  );
});
