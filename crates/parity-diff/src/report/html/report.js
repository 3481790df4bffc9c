// The filter: by op, state, verdict and free text, also read from the
// address's fragment (#op=sum&state=new&q=text). What does not match
// gets the `hidden` attribute, so a dumped DOM shows what a filter left.
(function () {
  "use strict";
  var form = document.getElementById("filter");
  var keys = ["op", "state", "verdict", "q"];
  var all = function (selector, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(selector));
  };
  var words = function (el, name) {
    return (el.getAttribute(name) || "").split(" ");
  };
  var show = function (el, visible) {
    if (visible) el.removeAttribute("hidden");
    else el.setAttribute("hidden", "");
  };

  function fromFields() {
    var f = {};
    keys.forEach(function (key) { f[key] = form.elements[key].value; });
    return f;
  }

  // A fragment without "=" is an anchor (#g3), not a filter.
  function fromHash() {
    var hash = location.hash.replace(/^#/, "");
    if (hash.indexOf("=") < 0) return null;
    var params = new URLSearchParams(hash);
    var f = {};
    keys.forEach(function (key) { f[key] = params.get(key) || ""; });
    return f;
  }

  function hashOf(f) {
    var params = new URLSearchParams();
    keys.forEach(function (key) { if (f[key]) params.set(key, f[key]); });
    return params.toString();
  }

  function toFields(f) {
    keys.forEach(function (key) {
      var field = form.elements[key];
      if (field.tagName === "SELECT" && f[key] &&
          !all("option", field).some(function (o) { return o.value === f[key]; })) {
        var option = document.createElement("option");
        option.value = f[key];
        option.textContent = f[key] + " (none here)";
        field.appendChild(option);
      }
      field.value = f[key];
    });
  }

  function fits(el, f) {
    if (f.op && el.getAttribute("data-op") !== f.op) return false;
    if (f.state && words(el, "data-states").indexOf(f.state) < 0) return false;
    if (f.verdict && words(el, "data-verdicts").indexOf(f.verdict) < 0) return false;
    return true;
  }

  function says(el, q) {
    return !q || (el.getAttribute("data-text") || "").toLowerCase().indexOf(q) >= 0;
  }

  function apply(f) {
    var q = f.q.trim().toLowerCase();
    var filtered = Boolean(f.op || f.state || f.verdict || q);
    // Per op: op, state and verdict (free text is for cases); the foot
    // sums the rows shown.
    var ops = all("[data-op-row]");
    var sum = { passed: 0, accepted: 0, failed: 0 };
    var shownOps = 0;
    ops.forEach(function (row) {
      var visible = fits(row, f);
      show(row, visible);
      if (!visible) return;
      shownOps += 1;
      Object.keys(sum).forEach(function (key) {
        sum[key] += Number(row.getAttribute("data-" + key));
      });
    });
    var cases = sum.passed + sum.accepted + sum.failed;
    Object.keys(sum).forEach(function (key) {
      document.getElementById("sum-" + key).textContent = String(sum[key]);
    });
    document.getElementById("sum-cases").textContent = String(cases);
    document.getElementById("sum-identical").textContent =
      cases ? Math.floor(sum.passed * 100 / cases) + "%" : "–";
    var foot = document.getElementById("sum-label");
    foot.textContent = filtered && shownOps < ops.length ? shownOps + (shownOps === 1 ? " op shown" : " ops shown") : "all ops";
    foot.parentNode.setAttribute("data-summed", String(shownOps));
    // Groups: a group shows when it fits and its signature or one of
    // its listed cases has the text; a case shows when it fits too.
    var groups = all("[data-group]");
    var shownGroups = 0, rows = 0, shownRows = 0;
    groups.forEach(function (group) {
      var fitting = fits(group, f);
      var named = says(group, q);
      var any = false;
      all("[data-row]", group).forEach(function (row) {
        rows += 1;
        var visible = fitting && fits(row, f) && (named || says(row, q));
        show(row, visible);
        if (visible) { any = true; shownRows += 1; }
      });
      var visible = fitting && (named || any);
      show(group, visible);
      if (visible) shownGroups += 1;
      all("table.brief", group).forEach(function (table) {
        show(table, table.querySelector("tr[data-row]:not([hidden])") !== null);
      });
    });
    all("[data-ref]").forEach(function (row) {
      var group = document.getElementById(row.getAttribute("data-ref"));
      show(row, group ? !group.hidden : fits(row, f) && says(row, q));
    });
    var others = all("[data-filtered]");
    var shownOthers = 0;
    others.forEach(function (el) {
      var visible = fits(el, f) && says(el, q);
      show(el, visible);
      if (visible) shownOthers += 1;
    });
    all("[data-section]").forEach(function (section) {
      var items = all("[data-op-row], [data-group], [data-ref], [data-filtered]", section);
      var none = section.querySelector(".none");
      if (none) show(none, items.length > 0 && !items.some(function (el) { return !el.hidden; }));
    });
    var status = document.getElementById("filter-status");
    status.setAttribute("data-ops", String(shownOps));
    status.setAttribute("data-groups", String(shownGroups));
    status.setAttribute("data-rows", String(shownRows));
    status.setAttribute("data-others", String(shownOthers));
    var noun = function (count, one, many) { return count === 1 ? one : many; };
    status.textContent = filtered
      ? "Showing " + shownOps + " of " + ops.length + noun(ops.length, " op, ", " ops, ") +
        shownGroups + " of " + groups.length + noun(groups.length, " group, ", " groups, ") +
        shownRows + " of " + rows + noun(rows, " listed case", " listed cases")
      : ops.length + noun(ops.length, " op, ", " ops, ") + groups.length +
        noun(groups.length, " group, ", " groups, ") + rows + noun(rows, " listed case", " listed cases");
    document.body.setAttribute("data-filter", hashOf(f));
  }

  function fromForm() {
    var f = fromFields();
    var hash = hashOf(f);
    history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
    apply(f);
  }

  form.addEventListener("input", fromForm);
  form.addEventListener("change", fromForm);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  form.addEventListener("reset", function () { setTimeout(fromForm, 0); });
  window.addEventListener("hashchange", function () {
    var f = fromHash();
    if (f) { toFields(f); apply(f); }
  });
  var start = fromHash() || fromFields();
  toFields(start);
  apply(start);
  document.body.setAttribute("data-rendered", "true");
})();
