import QRCode from 'qrcode-terminal/vendor/QRCode';
import QRErrorCorrectLevel from 'qrcode-terminal/vendor/QRCode/QRErrorCorrectLevel';

/** A QR code of `text`, drawn here as SVG (no image service, no request). */
export function Qr({ text, label }: { text: string; label: string }) {
  const code = new QRCode(-1, QRErrorCorrectLevel.M);
  code.addData(text);
  code.make();
  const size = code.getModuleCount();
  const quiet = 4;
  let path = '';
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (code.isDark(row, col)) path += `M${col + quiet} ${row + quiet}h1v1h-1z`;
    }
  }
  const full = size + quiet * 2;
  return (
    <svg
      class="qr"
      viewBox={`0 0 ${full} ${full}`}
      role="img"
      aria-label={label}
      shape-rendering="crispEdges"
    >
      <rect width={full} height={full} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
