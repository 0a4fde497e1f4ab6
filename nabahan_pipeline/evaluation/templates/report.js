"use strict";
const filters = Array.from(document.querySelectorAll("select[data-filter]"));
const cases = Array.from(document.querySelectorAll("details.case"));
const shown = document.getElementById("shown");
function apply() {
  let count = 0;
  for (const item of cases) {
    const fits = filters.every((filter) => !filter.value ||
      (item.dataset[filter.dataset.filter] || "").split(" ").includes(filter.value));
    item.hidden = !fits;
    if (fits) { count += 1; }
  }
  shown.textContent = String(count);
}
for (const filter of filters) { filter.addEventListener("change", apply); }
apply();
