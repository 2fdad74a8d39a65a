extension SHA256 {
    /// Finishes the hash and returns it as lower-case hexadecimal, as manifests and asset names write it.
    mutating func finalizeHex() -> String {
        finalize().map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
