/** `PairingSession`: a session token to use as the Basic password (`opencode:<token>`). */
export class PairingSessionDto {
  token: string;
}
