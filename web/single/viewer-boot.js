// Runs inside the single-file page's viewer frame (speedscope's page as a
// srcdoc, see scripts/build-single.mjs). speedscope loads #profileURL only
// when its page came over http(s), and this one is about:srcdoc; so, once
// speedscope is up, the profile (a blob: URL of the parent page, in the
// frame's name) is handed to it as a dropped file, which it reads from any
// origin.
window.addEventListener('load', async () => {
  const url = window.name;
  if (!url.startsWith('blob:')) return;
  let blob;
  try {
    blob = await (await fetch(url)).blob();
  } catch (error) {
    window.dispatchEvent(new ErrorEvent('error', { message: `The profile could not be read: ${error.message}` }));
    return;
  }
  const data = new DataTransfer();
  data.items.add(new File([blob], 'profile.speedscope.json', { type: 'application/json' }));
  // Any element of speedscope's page: the drop bubbles up to its handler.
  const target = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2) ?? document.body;
  target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
});
