/// SHA-256 (FIPS 180-4), for the checksums of `strata.lock` and the migration ledger.
/// Foundation on Linux has no CryptoKit, and a whole crypto package is more than a checksum needs.
package enum SHA256 {
    fileprivate static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The digest of `bytes` as 64 lower-case hexadecimal digits.
    package static func hex(_ bytes: some Collection<UInt8>) -> String {
        var hasher = Hasher()
        hasher.update(bytes)
        return hasher.hex()
    }

    /// The digest of the UTF-8 bytes of `text`, as hexadecimal.
    package static func hex(_ text: String) -> String { hex(text.utf8) }

    /// The 32-byte digest of `message`.
    package static func digest(_ message: [UInt8]) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(message)
        return hasher.digest()
    }

    /// A digest computed over bytes given in pieces, without holding them: a large migration's
    /// checksum needs no copy of its text. Whole blocks are compressed straight from the caller's
    /// buffer; only a block's partial start or end is copied.
    package struct Hasher {
        private var state = State()
        /// The current 64-byte block; its first `blockCount` bytes are the message's.
        private var block = [UInt8](repeating: 0, count: 64)
        private var blockCount = 0
        /// The bytes given so far.
        private var length: UInt64 = 0

        /// A digest of nothing yet.
        package init() {}

        /// Adds `bytes` to the message.
        package mutating func update(_ bytes: some Collection<UInt8>) {
            let contiguous: Void? = bytes.withContiguousStorageIfAvailable { buffer in
                update(buffer)
            }
            if contiguous == nil {
                for byte in bytes { update(byte: byte) }
            }
        }

        /// Adds one byte to the message.
        package mutating func update(byte: UInt8) {
            length &+= 1
            block[blockCount] = byte
            blockCount += 1
            if blockCount == 64 { compressBlock() }
        }

        /// Adds the bytes of `buffer` to the message.
        package mutating func update(_ buffer: UnsafeBufferPointer<UInt8>) {
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
            length &+= UInt64(buffer.count)
            var offset = 0
            if blockCount > 0 {
                let taken = min(64 - blockCount, buffer.count)
                for index in 0..<taken { block[blockCount + index] = base[index] }
                blockCount += taken
                offset = taken
                if blockCount < 64 { return }
                compressBlock()
            }
            while buffer.count - offset >= 64 {
                state.compress(base + offset)
                offset += 64
            }
            for index in offset..<buffer.count { block[index - offset] = base[index] }
            blockCount = buffer.count - offset
        }

        /// The 32-byte digest of the message (the hasher is done after this).
        package mutating func digest() -> [UInt8] {
            let bitLength = length &* 8
            update(byte: 0x80)
            while blockCount != 56 { update(byte: 0) }
            for shift in stride(from: 56, through: 0, by: -8) { update(byte: UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(32)
            for value in state.words {
                for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
            }
            return bytes
        }

        /// The digest as 64 lower-case hexadecimal digits.
        package mutating func hex() -> String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(64)
            for byte in digest() {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: text, as: UTF8.self)
        }

        /// Compresses the full block held in `block`.
        private mutating func compressBlock() {
            blockCount = 0
            block.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { state.compress(base) }
            }
        }
    }

    /// The eight words of the hash value between blocks.
    private struct State {
        var h0: UInt32 = 0x6a09_e667, h1: UInt32 = 0xbb67_ae85, h2: UInt32 = 0x3c6e_f372, h3: UInt32 = 0xa54f_f53a
        var h4: UInt32 = 0x510e_527f, h5: UInt32 = 0x9b05_688c, h6: UInt32 = 0x1f83_d9ab, h7: UInt32 = 0x5be0_cd19

        var words: [UInt32] { [h0, h1, h2, h3, h4, h5, h6, h7] }

        /// Processes the 64 bytes at `bytes`.
        mutating func compress(_ bytes: UnsafePointer<UInt8>) {
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for i in 0..<16 {
                    let base = bytes + i * 4
                    w[i] = UInt32(base[0]) << 24 | UInt32(base[1]) << 16 | UInt32(base[2]) << 8 | UInt32(base[3])
                }
                for i in 16..<64 {
                    let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
                    let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
                    w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                }
                var (a, b, c, d, e, f, g, hh) = (h0, h1, h2, h3, h4, h5, h6, h7)
                k.withUnsafeBufferPointer { k in
                    for i in 0..<64 {
                        let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
                        let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = s0 &+ majority
                        (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                    }
                }
                h0 = h0 &+ a
                h1 = h1 &+ b
                h2 = h2 &+ c
                h3 = h3 &+ d
                h4 = h4 &+ e
                h5 = h5 &+ f
                h6 = h6 &+ g
                h7 = h7 &+ hh
            }
        }
    }

    fileprivate static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }
}
