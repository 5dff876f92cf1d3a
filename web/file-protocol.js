// A classic script (module scripts do not run from file://): when the page is
// opened as a file (a copied or unzipped folder), say at once how to serve it
// instead of hanging on "Loading the converter…". Served over http(s) it does
// nothing. dist/scope-speedscope.html is the version that works from a file.
(function () {
  if (window.location.protocol !== 'file:') return;
  var path = decodeURIComponent(window.location.pathname);
  // file:///C:/x/index.html -> C:/x ; file:///home/x/index.html -> /home/x
  var folder = path.replace(/\/[^/]*$/, '').replace(/^\/([A-Za-z]:)/, '$1') || '/';
  var command = 'python3 -m http.server -b 127.0.0.1 -d "' + folder + '" 8000';
  var show = function () {
    var line = document.getElementById('version-line');
    if (!line) return;
    var box = document.createElement('div');
    box.className = 'file-protocol';
    box.setAttribute('role', 'alert');
    box.setAttribute('data-testid', 'file-protocol');
    var p1 = document.createElement('p');
    p1.textContent =
      'This page was opened as a file, and browsers do not run its converter from a file. ' +
      'Serve this folder with one command, then open http://127.0.0.1:8000/ :';
    var code = document.createElement('code');
    code.textContent = command;
    var pre = document.createElement('pre');
    pre.appendChild(code);
    var p2 = document.createElement('p');
    p2.textContent =
      'Or use scope-speedscope.html, the single-file version of this page, which works from a file ' +
      '(npm run build writes it to dist/).';
    box.appendChild(p1);
    box.appendChild(pre);
    box.appendChild(p2);
    line.replaceWith(box);
    for (var id of ['file-input', 'example', 'convert']) {
      var control = document.getElementById(id);
      if (control) control.disabled = true;
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
  else show();
})();
