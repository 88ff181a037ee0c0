// Filters the changes on a page as the reader types. Without JavaScript the
// form stays hidden and every change shows.
(function () {
  var form = document.getElementById("filter");
  if (!form) return;
  var text = document.getElementById("filter-text");
  var breakingOnly = document.getElementById("filter-breaking");
  var status = document.getElementById("filter-status");
  var groups = document.querySelectorAll("[data-filter-group]");
  var items = document.querySelectorAll(".change");
  items.forEach(function (item) {
    item.searchText = item.textContent.toLowerCase().replace(/\s+/g, " ");
  });
  function apply() {
    var terms = text.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    items.forEach(function (item) {
      var match = (!breakingOnly.checked || item.classList.contains("breaking")) &&
        terms.every(function (t) { return item.searchText.indexOf(t) >= 0; });
      item.hidden = !match;
      if (match) shown++;
    });
    groups.forEach(function (group) {
      group.hidden = !group.querySelector(".change:not([hidden])");
    });
    var filtered = terms.length > 0 || breakingOnly.checked;
    status.textContent = filtered ? shown + " of " + items.length + " shown" : "";
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
