// A page contributed by the in-framework tests.
export function mount(view) {
  view.textContent = 'racks';
  return { refresh() {}, unmount() {} };
}
