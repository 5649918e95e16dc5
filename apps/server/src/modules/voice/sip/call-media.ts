/** A call's media description: the audio agreed (applied to its RTP session) and our SDP for it. */
import { buildAnswer, buildOffer, type NegotiatedAudio } from "./sdp.ts";
import type { Call } from "./sip-types.ts";

export function applyAudio(call: Call, audio: NegotiatedAudio) {
  call.audio = audio;
  call.info.narrowband = audio.codec !== "L16";
  call.rtp.apply(audio);
}

/** Our SDP for the call now: an answer to `offer`, or (delayed offer) our own offer. */
export function localSdp(call: Call, offer: NegotiatedAudio | null): string {
  const build = () =>
    offer ? buildAnswer(offer, call.sdpSession) : buildOffer(call.sdpSession, call.audio?.direction);
  let draft = build();
  // RFC 3264 §8: the version changes only when the description does.
  if (call.lastSdp && stripOrigin(draft) !== stripOrigin(call.lastSdp)) {
    call.sdpSession.version++;
    draft = build();
  }
  call.lastSdp = draft;
  return draft;
}

function stripOrigin(sdp: string): string {
  return sdp.replace(/^o=.*$/m, "");
}
