import Foundation

/// The results as an SVG bar chart: one horizontal bar per workload, its length the ratio
/// SwiftLite / raw C, a line at 1.0 (raw C's pace) and a tick at each target.
func svgChart(_ results: [WorkloadResult], title: String) -> String {
  let rowHeight = 22.0
  let left = 170.0
  let width = 420.0
  let top = 40.0
  let finite = results.map(\.ratio).filter(\.isFinite)
  let maximum = max(2.0, (finite.max() ?? 1).rounded(.up))
  let scale = width / maximum
  let height = top + Double(results.count) * rowHeight + 30
  func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
  }
  func number(_ value: Double) -> String { String(format: "%.1f", value) }
  var parts = [
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(number(left + width + 60))\" "
      + "height=\"\(number(height))\" font-family=\"sans-serif\" font-size=\"12\">",
    "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
    "<text x=\"10\" y=\"20\" font-size=\"14\">\(escape(title))</text>",
  ]
  for tick in stride(from: 0.0, through: maximum, by: 0.5) {
    let x = left + tick * scale
    let stroke = tick == 1 ? "#333" : "#ddd"
    parts.append(
      "<line x1=\"\(number(x))\" y1=\"\(number(top - 6))\" x2=\"\(number(x))\" "
        + "y2=\"\(number(height - 24))\" stroke=\"\(stroke)\"/>")
    parts.append(
      "<text x=\"\(number(x))\" y=\"\(number(height - 10))\" text-anchor=\"middle\" "
        + "fill=\"#555\">\(number(tick))</text>")
  }
  for (index, result) in results.enumerated() {
    let y = top + Double(index) * rowHeight
    let ratio = result.ratio.isFinite ? result.ratio : 0
    let color = result.meetsTarget == false ? "#d9822b" : "#3a7bd5"
    parts.append(
      "<text x=\"\(number(left - 8))\" y=\"\(number(y + 14))\" text-anchor=\"end\">"
        + "\(escape(result.workload.name))</text>")
    parts.append(
      "<rect x=\"\(number(left))\" y=\"\(number(y + 3))\" width=\"\(number(ratio * scale))\" "
        + "height=\"\(number(rowHeight - 6))\" fill=\"\(color)\"/>")
    parts.append(
      "<text x=\"\(number(left + ratio * scale + 4))\" y=\"\(number(y + 14))\">"
        + String(format: "%.2f", ratio) + "</text>")
    if let target = result.workload.target {
      let x = left + target * scale
      parts.append(
        "<line x1=\"\(number(x))\" y1=\"\(number(y + 1))\" x2=\"\(number(x))\" "
          + "y2=\"\(number(y + rowHeight - 1))\" stroke=\"#c00\" stroke-width=\"2\"/>")
    }
  }
  parts.append("</svg>")
  return parts.joined(separator: "\n") + "\n"
}
