// The rule docs' examples are fenced as ```properties file=server-0.properties kafka=3.9: the
// rule-doc tests write each block to that file and check it against that Kafka release. mdBook
// keeps the words as classes of the block; this shows them above it, as the file's name.
(function () {
  for (const code of document.querySelectorAll('pre > code[class*="file="]')) {
    const words = code.className.split(/\s+/);
    const file = words.find((word) => word.startsWith('file='));
    const kafka = words.find((word) => word.startsWith('kafka='));
    const caption = document.createElement('div');
    caption.className = 'code-file';
    caption.textContent =
      file.slice('file='.length) + (kafka ? ' (Kafka ' + kafka.slice('kafka='.length) + ')' : '');
    const pre = code.parentElement;
    pre.parentElement.insertBefore(caption, pre);
  }
})();
