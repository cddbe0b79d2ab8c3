package dev.remedy.simulators.ipmi;

import static dev.remedy.simulators.ipmi.Wire.concat;
import static dev.remedy.simulators.ipmi.Wire.le32;

import java.util.Arrays;

/**
 * The RAKP arithmetic of IPMI v2.0 section 13.31/13.32, from the BMC's side. SIDm is the console's session id,
 * SIDc the BMC's; RoleM is the whole role byte of RAKP 1; Kuid the user's password zero-padded to 20 bytes;
 * KG the BMC key if set, else Kuid. K1 and K2 are HMACs of a 20-byte constant for every hash (as ipmitool and
 * freeipmi compute them for SHA-256 too).
 */
final class Rakp {

    /** The length of the K1/K2 constants. */
    static final int CONSTANT_LENGTH = 20;

    private Rakp() {
    }

    /** RAKP 2 key exchange code: HMAC_Kuid(SIDm | SIDc | Rm | Rc | GUIDc | RoleM | ULenM | UNameM). */
    static byte[] rakp2Code(Crypto crypto, CipherSuite suite, byte[] kuid, int consoleId, int bmcId, byte[] rm,
            byte[] rc, byte[] guid, int role, byte[] name) {
        return crypto.hmac(suite.authentication, kuid,
                concat(le32(consoleId), le32(bmcId), rm, rc, guid, roleAndName(role, name)));
    }

    /** RAKP 3 code the console must send: HMAC_Kuid(Rc | SIDm | RoleM | ULenM | UNameM). */
    static byte[] rakp3Code(Crypto crypto, CipherSuite suite, byte[] kuid, byte[] rc, int consoleId, int role,
            byte[] name) {
        return crypto.hmac(suite.authentication, kuid, concat(rc, le32(consoleId), roleAndName(role, name)));
    }

    /** Session integrity key: HMAC_KG(Rm | Rc | RoleM | ULenM | UNameM). */
    static byte[] sik(Crypto crypto, CipherSuite suite, byte[] kg, byte[] rm, byte[] rc, int role, byte[] name) {
        return crypto.hmac(suite.authentication, kg, concat(rm, rc, roleAndName(role, name)));
    }

    /** K1 (constant 1) or K2 (constant 2): HMAC_SIK(constant repeated 20 times). */
    static byte[] derivedKey(Crypto crypto, CipherSuite suite, byte[] sik, int constant) {
        byte[] input = new byte[CONSTANT_LENGTH];
        Arrays.fill(input, (byte) constant);
        return crypto.hmac(suite.authentication, sik, input);
    }

    /** RAKP 4 integrity check value: HMAC_SIK(Rm | SIDc | GUIDc), truncated to 12 (SHA-1) or 16 (SHA-256) bytes. */
    static byte[] rakp4Icv(Crypto crypto, CipherSuite suite, byte[] sik, byte[] rm, int bmcId, byte[] guid) {
        return crypto.hmac(suite.authentication, sik, concat(rm, le32(bmcId), guid),
                suite.authentication.truncatedLength);
    }

    private static byte[] roleAndName(int role, byte[] name) {
        byte[] out = new byte[2 + name.length];
        out[0] = (byte) role;
        out[1] = (byte) name.length;
        System.arraycopy(name, 0, out, 2, name.length);
        return out;
    }
}
