import SwiftLite
