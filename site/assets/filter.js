// Filters the changes on a page as the reader types, and finds matches in
// the rest of the history from search-index.js, loaded the first time the
// filter is used (a script, so it loads from disk too). Without JavaScript
// the form stays hidden and every change shows.
(function () {
  var form = document.getElementById("filter");
  if (!form) return;
  var text = document.getElementById("filter-text");
  var breakingOnly = document.getElementById("filter-breaking");
  var status = document.getElementById("filter-status");
  var elsewhere = document.getElementById("filter-elsewhere");
  var groups = document.querySelectorAll("[data-filter-group]");
  var items = document.querySelectorAll(".change");
  var folds = document.querySelectorAll("details.changes");
  var maxElsewhere = 50;
  var loading = false;
  items.forEach(function (item) {
    item.searchText = item.textContent.toLowerCase().replace(/\s+/g, " ");
  });
  function matches(haystack, terms, breaking) {
    return (!breakingOnly.checked || breaking) &&
      terms.every(function (t) { return haystack.indexOf(t) >= 0; });
  }
  function loadIndex() {
    if (loading || !form.dataset.search) return;
    loading = true;
    var script = document.createElement("script");
    script.src = form.dataset.search;
    script.onload = apply;
    document.head.appendChild(script);
  }
  // The matches of the whole history that this page does not show.
  function showElsewhere(terms, filtered) {
    var index = window.apiverSearchIndex;
    if (!elsewhere || !index || !filtered) {
      if (elsewhere) elsewhere.hidden = true;
      return 0;
    }
    var self = form.dataset.self, root = form.dataset.root;
    var list = elsewhere.querySelector("ul"), more = elsewhere.querySelector(".more");
    list.textContent = "";
    var found = 0;
    index.lines.forEach(function (line) {
      var ops = line.o.map(function (i) { return index.operations[i]; });
      if (self && ops.indexOf(self) >= 0) return;
      if (document.querySelector('[data-date="' + line.d + '"] #' + line.a)) return;
      if (!line.s) line.s = [line.d, line.i, line.t, (line.w || []).join(" "), ops.join(" ")].join(" ").toLowerCase();
      if (!matches(line.s, terms, line.b)) return;
      found++;
      if (found > maxElsewhere) return;
      var li = document.createElement("li");
      li.className = "change" + (line.b ? " breaking" : "");
      var a = document.createElement("a");
      a.href = root + "releases/" + line.d + ".html#" + line.a;
      a.textContent = line.d;
      li.appendChild(a);
      // The details that matched say where in the operations the change is.
      var where = (line.w || []).filter(function (w) {
        return terms.some(function (t) { return w.toLowerCase().indexOf(t) >= 0; });
      });
      li.appendChild(document.createTextNode(" " + (line.b ? "Breaking: " : "") + line.t + " — " +
        (ops.length === 1 ? ops[0] : ops.slice(0, 3).join(", ") + (ops.length > 3 ? " and " + (ops.length - 3) + " more" : "")) +
        (where.length ? " (" + where.join("; ") + ")" : "")));
      list.appendChild(li);
    });
    more.textContent = found > maxElsewhere ? "And " + (found - maxElsewhere) + " more; narrow the filter to see them." : "";
    elsewhere.hidden = found === 0;
    return found;
  }
  function apply() {
    var terms = text.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    items.forEach(function (item) {
      var match = matches(item.searchText, terms, item.classList.contains("breaking"));
      item.hidden = !match;
      if (match) shown++;
    });
    groups.forEach(function (group) {
      group.hidden = !group.querySelector(".change:not([hidden])");
    });
    var filtered = terms.length > 0 || breakingOnly.checked;
    // A collapsed release opens while the filter shows its changes, and
    // closes again when the filter is cleared, unless the reader opened it.
    folds.forEach(function (fold) {
      if (filtered && !fold.open && fold.querySelector(".change:not([hidden])")) {
        fold.open = true;
        fold.openedByFilter = true;
      } else if (!filtered && fold.openedByFilter) {
        fold.open = false;
        fold.openedByFilter = false;
      }
    });
    if (filtered) loadIndex();
    var other = showElsewhere(terms, filtered);
    status.textContent = filtered ? shown + " of " + items.length + " shown" +
      (other ? "; " + other + " more elsewhere in the history" : "") : "";
    var url = new URL(window.location.href);
    if (text.value) url.searchParams.set("q", text.value); else url.searchParams.delete("q");
    if (breakingOnly.checked) url.searchParams.set("breaking", "1"); else url.searchParams.delete("breaking");
    try { history.replaceState(null, "", url); } catch (e) { /* file: pages may refuse */ }
  }
  var params = new URLSearchParams(window.location.search);
  text.value = params.get("q") || "";
  breakingOnly.checked = params.get("breaking") === "1";
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  text.addEventListener("input", apply);
  breakingOnly.addEventListener("change", apply);
  form.hidden = false;
  apply();
})();
